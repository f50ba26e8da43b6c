package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// input is one thing to read: a path named with -f, "-" for stdin, or a
// directory's entry.
type input struct {
	path string
	// listed marks a directory's entry: it is read only when it is a
	// regular file (or a link to one), since a FIFO or a device named
	// x.yaml might never end or block forever.
	listed bool
	// kustomize marks a directory to build with kustomize (-k, or a
	// directory holding a kustomization); found says the walk found it
	// rather than the user naming it. built is the build's result once
	// buildAll has run it, skip an input buildAll dropped.
	kustomize, found, skip bool
	built                  *kustomize.Result
	// root is the -f directory a walk found the input under.
	root string
	// siblings are the manifest files beside a kustomization the walk
	// found: those the build does not read are named in its finding.
	siblings []string
	// docs are a build's documents, made by buildAll (with Flux's
	// substitution done).
	docs []document
}

// reader reads inputs one at a time within the byte limits. It is used by
// one goroutine.
type reader struct {
	limits Limits
	stdin  io.Reader
	// total is what the inputs read so far hold.
	total int64
	// exhausted is set once the total limit is reached; the caller
	// reads nothing more after that.
	exhausted bool
	// cache, when set, keeps the bytes of inputs that cannot be read
	// twice, for a second pass (see loadAuto).
	cache *inputCache
}

// inputCache holds what a second pass over the inputs needs: the bytes of
// the inputs that are not regular files (stdin, a FIFO named with -f),
// which cannot be read again. A regular file is read again from disk.
type inputCache struct {
	kept map[string][]byte
	// replay makes the reader take kept inputs from kept.
	replay bool
	// builds are the inputs listed and built by the first pass.
	builds *builds
}

// read returns the name sources use and the bytes of in, or a problem: a
// warning for a listed entry that is not a regular file, an error for an
// input that could not be read or is over a limit. again says whether the
// bytes can be read again from the same name: a regular file's can, those
// of stdin or a FIFO (`-f <(kustomize build)`) cannot.
func (r *reader) read(in input) (name string, data []byte, again bool, problem *diag.Finding) {
	name = in.path
	if in.path == "-" {
		name = stdinName
	}
	if r.cache != nil && r.cache.replay {
		if data, ok := r.cache.kept[in.path]; ok {
			r.total += int64(len(data))
			return name, data, false, nil
		}
	}
	f, closeInput, err := r.open(in)
	if err != nil {
		var nr *notRegularError
		if errors.As(err, &nr) {
			return name, nil, false, &diag.Finding{
				Severity: diag.Warning, Source: diag.Source{File: name}, Reason: diag.ReasonNotRegularFile,
				Message: fmt.Sprintf("skipped: %s, not a regular file", nr.what),
			}
		}
		pe := pathError(name, err)
		return name, nil, false, &pe
	}
	defer closeInput()
	data, overTotal, regular, err := r.readLimited(f)
	if err == nil && r.cache != nil && !r.cache.replay && (!regular || in.path == "-") {
		r.cache.kept[in.path] = data
	}
	if err != nil {
		pe := pathError(name, err)
		if overTotal || errors.Is(err, errTooLarge) {
			pe = limitError(diag.Source{File: name}, diag.ObjectRef{}, "", r.limitMessage(overTotal))
		}
		return name, nil, false, &pe
	}
	return name, data, regular && in.path != "-", nil
}

// open opens in for reading. A listed entry is opened without blocking (a
// FIFO's open would wait for a writer) and checked to be a regular file
// both before and after opening, so that a swap in between changes
// nothing.
func (r *reader) open(in input) (io.Reader, func(), error) {
	if in.path == "-" {
		if r.stdin == nil {
			return nil, nil, errors.New("no standard input to read")
		}
		return r.stdin, func() {}, nil
	}
	if in.listed {
		info, err := os.Stat(in.path)
		if err == nil {
			err = regular(info)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	flags := os.O_RDONLY
	if in.listed {
		flags |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(in.path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	if in.listed {
		info, err := f.Stat()
		if err == nil {
			err = regular(info)
		}
		if err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, func() { f.Close() }, nil
}

// notRegularError says what a listed entry is instead of a regular file.
type notRegularError struct{ what string }

func (e *notRegularError) Error() string { return "not a regular file: " + e.what }

func regular(info fs.FileInfo) error {
	m := info.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return &notRegularError{"a directory (reached through a symbolic link, which is not followed)"}
	case m&fs.ModeNamedPipe != 0:
		return &notRegularError{"a FIFO"}
	case m&fs.ModeSocket != 0:
		return &notRegularError{"a socket"}
	case m&fs.ModeDevice != 0:
		return &notRegularError{"a device"}
	}
	return &notRegularError{"a special file"}
}

// errTooLarge ends a read at the limit for one input.
var errTooLarge = errors.New("input too large")

// readLimited reads f up to the smaller of the per-input limit and what
// is left of the total. A regular file's size is checked before reading,
// so that an oversized file costs nothing; anything else (stdin, a FIFO
// or a device named with -f) is read until one byte past the limit.
// overTotal tells which limit stopped it.
func (r *reader) readLimited(f io.Reader) (data []byte, overTotal, regular bool, err error) {
	left := r.limits.TotalBytes - r.total
	limit := min(r.limits.FileBytes, left)
	overTotal = left <= r.limits.FileBytes
	var size int64 = -1
	if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if info, err := st.Stat(); err == nil && info.Mode().IsRegular() {
			size = info.Size()
		}
	}
	regular = size >= 0
	if size > limit {
		r.exhausted = r.exhausted || overTotal
		return nil, overTotal, regular, errTooLarge
	}
	data, err = readUpTo(f, limit+1, size)
	if err != nil && !errors.Is(err, errTooLarge) {
		return nil, false, regular, err
	}
	if err != nil || int64(len(data)) > limit {
		r.exhausted = r.exhausted || overTotal
		return nil, overTotal, regular, errTooLarge
	}
	r.total += int64(len(data))
	return data, false, regular, nil
}

// readChunk is the piece in which an input of unknown size is read.
const readChunk = 1 << 20

// readUpTo reads f to its end or to max bytes (errTooLarge when it has
// that many, for an input of unknown size). With the size known (a
// regular file) it reads into one buffer of that size; otherwise it reads
// in chunks and joins them at the end, so that an endless input costs
// max bytes, not the doublings of a growing buffer.
func readUpTo(f io.Reader, max, size int64) ([]byte, error) {
	if size >= 0 {
		buf := bytes.NewBuffer(make([]byte, 0, min(size, max)+bytes.MinRead))
		_, err := buf.ReadFrom(io.LimitReader(f, max))
		return buf.Bytes(), err
	}
	var chunks [][]byte
	var n int64
	for n < max {
		chunk := make([]byte, min(readChunk, max-n))
		k, err := io.ReadFull(f, chunk)
		chunks = append(chunks, chunk[:k])
		n += int64(k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if n >= max {
		return nil, errTooLarge
	}
	return bytes.Join(chunks, nil), nil
}

func (r *reader) limitMessage(overTotal bool) string {
	if overTotal {
		return fmt.Sprintf("not read: with it, the inputs would hold more than %s in total, the limit (--max-total-bytes); no further input is read",
			byteSize(r.limits.TotalBytes))
	}
	return fmt.Sprintf("not read: larger than %s, the limit per input (--max-file-bytes)", byteSize(r.limits.FileBytes))
}

// byteSize renders a limit in the unit it was most likely given in.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads one file under the rules every listed input follows: it
// must be a regular file (or a link to one), checked before and after an
// open that never blocks, and at most limit bytes. gwsim's own config
// file is read this way, since it is found in the repository under test
// like a manifest and deserves no more trust.
func ReadFile(path string, limit int64) ([]byte, error) {
	r := reader{limits: Limits{FileBytes: limit, TotalBytes: limit}}
	f, closeInput, err := r.open(input{path: path, listed: true})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, err // the path is in the message already
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer closeInput()
	data, _, _, err := r.readLimited(f)
	if errors.Is(err, errTooLarge) {
		return nil, fmt.Errorf("%s: larger than %s, the limit for it", path, byteSize(limit))
	}
	return data, err
}
