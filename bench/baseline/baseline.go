// Package baseline is the floor gwsim's performance is measured against:
// the bare decode of a manifest directory into typed objects,
// and nothing else. It reads the same files gwsim reads, in the same order,
// cuts them at "---" lines and decodes each document with apimachinery's
// universal deserializer (YAML to JSON, then JSON into the struct), on as
// many goroutines as asked. It does none of what gwsim's loader adds: no
// strict field checks, no source positions, no conversion to v1, no
// deduplication or sorting, and no JSON-stream or "..." handling, so it
// expects the plain YAML that bench/synth writes.
//
// The stage benchmarks (bench/baseline_test.go) and the bare-decode binary
// that bench/run.sh times (bench/decode) share it, so the floor in both is
// the same code.
package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/gwsim/gwsim/offline/scheme"
)

// Decode decodes every document of dir's manifest files (.yaml, .yml and
// .json, sorted by name, subdirectories skipped: what `gwsim -f DIR` reads)
// on workers goroutines and returns the decoded objects. They are returned,
// not dropped, because gwsim holds every object until it has rendered its
// output; a floor that let the garbage collector free them as it went would
// be lower than any real run could reach. Their order is not the files'.
// A file that cannot be read, or each worker's first document that does
// not decode (with its file's name), is returned as an error.
func Decode(dir string, workers int) ([]runtime.Object, error) {
	files, err := manifestFiles(dir)
	if err != nil {
		return nil, err
	}
	workers = max(workers, 1)
	dec := serializer.NewCodecFactory(scheme.New()).UniversalDeserializer()
	type job struct {
		file string
		doc  []byte
	}
	jobs := make(chan job, 256)
	var readErr error // written by the reader only; read after the workers end
	go func() {
		defer close(jobs)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				readErr = err
				return
			}
			for doc := range bytes.SplitSeq(append([]byte("\n"), data...), []byte("\n---\n")) {
				if len(bytes.TrimSpace(doc)) > 0 {
					jobs <- job{file: f, doc: doc}
				}
			}
		}
	}()
	objs := make([][]runtime.Object, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := range jobs {
				obj, _, err := dec.Decode(j.doc, nil, nil)
				if err != nil {
					if errs[w] == nil {
						errs[w] = fmt.Errorf("%s: %w", j.file, err)
					}
					continue
				}
				objs[w] = append(objs[w], obj)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(append([]error{readErr}, errs...)...); err != nil {
		return nil, err
	}
	var out []runtime.Object
	for _, o := range objs {
		out = append(out, o...)
	}
	return out, nil
}

// manifestFiles lists dir's manifest files in the order gwsim reads them.
func manifestFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	return files, nil
}
