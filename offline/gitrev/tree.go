package gitrev

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLinks bounds how many symbolic links one export follows, so that a
// chain or loop of links in a hostile tree cannot make it run forever.
const maxLinks = 1000

// entry is one line of `git ls-tree`: a mode, an object and a path from
// the repository's top.
type entry struct {
	mode, object, path string
}

// modeLink is the tree entry mode of a symbolic link.
const modeLink = "120000"

// tree exports paths of one revision into dir.
type tree struct {
	ctx      context.Context
	top, rev string
	dir      string
	// done holds the paths already exported, so that links into a
	// directory exported anyway, and link loops, add nothing.
	done map[string]bool
	// written holds the files and links already recorded.
	written map[string]bool
	// blobs are the regular files to write, read in one `git cat-file`.
	blobs []entry
	links int
}

// export writes rel (a file, a link or a directory) of the revision under
// t.dir, and the targets of the links below it; false when the revision
// has no rel.
func (t *tree) export(rel string) (bool, error) {
	if t.done[rel] {
		return true, nil
	}
	t.done[rel] = true
	// --full-tree: paths are from the top whatever the working directory;
	// -r lists a directory's files (not the directory itself).
	out, err := git(t.ctx, t.top, "ls-tree", "-r", "-z", "--full-tree", t.rev, "--", rel)
	if err != nil {
		return false, err
	}
	entries, err := parseEntries(out)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.path != rel && !strings.HasPrefix(e.path, strings.TrimSuffix(rel, "/")+"/") && rel != "." {
			continue // ls-tree matches rel as a prefix of names too
		}
		if err := t.add(e); err != nil {
			return false, err
		}
	}
	return len(entries) > 0, nil
}

// add records a regular file, or makes a link and exports its target.
// Submodules (commits) are not manifests of this repository.
func (t *tree) add(e entry) error {
	if t.written[e.path] {
		return nil // listed again through a link into its directory
	}
	t.written[e.path] = true
	switch {
	case e.mode == modeLink:
		return t.link(e)
	case strings.HasPrefix(e.mode, "100"):
		t.blobs = append(t.blobs, e)
	}
	return nil
}

// link recreates a symbolic link. A target inside the tree is exported
// too, and the link points at its copy; a target outside the repository
// is kept as the absolute path a checkout's link would reach.
func (t *tree) link(e entry) error {
	if t.links++; t.links > maxLinks {
		return fmt.Errorf("%s:%s: more than %d symbolic links", t.rev, e.path, maxLinks)
	}
	target, err := git(t.ctx, t.top, "cat-file", "blob", e.object)
	if err != nil {
		return err
	}
	dst := filepath.Join(t.dir, filepath.FromSlash(e.path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tgt := string(target)
	if path.IsAbs(tgt) || strings.ContainsRune(tgt, 0) {
		return os.Symlink(filepath.FromSlash(tgt), dst)
	}
	inTree := path.Join(path.Dir(e.path), tgt)
	if inTree == ".." || strings.HasPrefix(inTree, "../") {
		return os.Symlink(filepath.Join(t.top, filepath.FromSlash(inTree)), dst)
	}
	if err := os.Symlink(filepath.FromSlash(tgt), dst); err != nil {
		return err
	}
	_, err = t.export(inTree)
	return err
}

// writeBlobs writes every recorded regular file, reading them all through
// one `git cat-file --batch`.
func (t *tree) writeBlobs() error {
	if len(t.blobs) == 0 {
		return nil
	}
	var in bytes.Buffer
	for _, b := range t.blobs {
		in.WriteString(b.object + "\n")
	}
	cmd := exec.CommandContext(t.ctx, "git", "cat-file", "--batch")
	cmd.Dir, cmd.Stdin = t.top, &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	werr := t.readBatch(bufio.NewReader(stdout))
	if err := cmd.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("git cat-file --batch: %s", strings.TrimSpace(stderr.String()+" "+err.Error()))
	}
	return werr
}

// readBatch reads `git cat-file --batch` output, one blob per recorded
// file in order, and writes each under t.dir.
func (t *tree) readBatch(r *bufio.Reader) error {
	for _, b := range t.blobs {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading git cat-file: %w", err)
		}
		fields := strings.Fields(header)
		if len(fields) != 3 || fields[1] != "blob" {
			return fmt.Errorf("git cat-file: %s:%s: %s", t.rev, b.path, strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return fmt.Errorf("git cat-file: bad size in %q", header)
		}
		dst := filepath.Join(t.dir, filepath.FromSlash(b.path))
		if err := writeFile(dst, io.LimitReader(r, size), size); err != nil {
			return err
		}
		if _, err := r.ReadByte(); err != nil { // the newline after the content
			return fmt.Errorf("reading git cat-file: %w", err)
		}
	}
	return nil
}

// writeFile copies size bytes of r to dst, making its directory.
func writeFile(dst string, r io.Reader, size int64) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("git cat-file: %s: short read", dst)
	}
	return err
}

// parseEntries parses `git ls-tree -z` output: "<mode> <type> <object>\t<path>\0".
func parseEntries(out []byte) ([]entry, error) {
	var es []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		name := string(p)
		clean := path.Clean(name)
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, errors.New("git ls-tree: a path outside the tree: " + name)
		}
		es = append(es, entry{mode: f[0], object: f[2], path: clean})
	}
	return es, nil
}
