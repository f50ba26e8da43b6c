package load

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/gwsim/gwsim/translate/diag"
)

// decodeAll reads the files one at a time, splits each into documents and
// decodes the documents on GOMAXPROCS workers, since decoding YAML is what
// takes the time. Results come back indexed by document order, so the output
// never depends on scheduling. Only one file's bytes are held by the reader
// at a time (decoded objects are kept, of course).
func decodeAll(files []string, stdin io.Reader, d *decoder) ([]decoded, []diag.Finding) {
	type job struct {
		idx int
		doc document
	}
	type result struct {
		idx int
		out decoded
	}
	jobs := make(chan job, 256)
	results := make(chan result, 256)
	var readErrs []diag.Finding // written by the reader only; read after results close
	go func() {
		defer close(jobs)
		idx := 0
		for _, f := range files {
			name, data, err := readFile(f, stdin)
			if err != nil {
				readErrs = append(readErrs, pathError(name, err))
				continue
			}
			docs, errs := split(name, data)
			readErrs = append(readErrs, errs...)
			for _, doc := range docs {
				jobs <- job{idx: idx, doc: doc}
				idx++
			}
		}
	}()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range jobs {
				results <- result{idx: j.idx, out: d.document(j.doc)}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var out []decoded
	for r := range results {
		for len(out) <= r.idx {
			out = append(out, decoded{})
		}
		out[r.idx] = r.out
	}
	return out, readErrs
}

// readFile reads a file, or stdin for "-", and returns the name sources use.
func readFile(path string, stdin io.Reader) (string, []byte, error) {
	if path != "-" {
		data, err := os.ReadFile(path)
		return path, data, err
	}
	if stdin == nil {
		return stdinName, nil, errors.New("no standard input to read")
	}
	data, err := io.ReadAll(stdin)
	return stdinName, data, err
}
