package bench_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/gwsim/gwsim/offline/scheme"
)

// BenchmarkBareDecodeSerial is the floor gwsim is compared against (issue
// 7): read the same files, cut them at "---" lines and decode each document
// into its typed object with apimachinery's universal deserializer (YAML to
// JSON, then JSON into the struct), on one goroutine, and nothing else: no
// strictness, no sources, no conversion, no sorting.
func BenchmarkBareDecodeSerial(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		for b.Loop() {
			bareDecode(b, dir, 1)
		}
	})
}

// BenchmarkBareDecodeParallel is the same floor on GOMAXPROCS goroutines,
// as gwsim's loader decodes: the fair floor for the whole-run ratio.
func BenchmarkBareDecodeParallel(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		for b.Loop() {
			bareDecode(b, dir, runtime.GOMAXPROCS(0))
		}
	})
}

// bareDecode decodes every document of dir's files on workers goroutines
// and returns the number of objects.
func bareDecode(b *testing.B, dir string, workers int) int {
	b.Helper()
	dec := serializer.NewCodecFactory(scheme.New()).UniversalDeserializer()
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	docs := make(chan []byte, 256)
	go func() {
		defer close(docs)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				panic(err)
			}
			for doc := range bytes.SplitSeq(append([]byte("\n"), data...), []byte("\n---\n")) {
				if len(bytes.TrimSpace(doc)) > 0 {
					docs <- doc
				}
			}
		}
	}()
	counts := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for doc := range docs {
				if _, _, err := dec.Decode(doc, nil, nil); err != nil && errs[w] == nil {
					errs[w] = err
				}
				counts[w]++
			}
		})
	}
	wg.Wait()
	n := 0
	for w := range workers {
		if errs[w] != nil {
			b.Fatal(errs[w])
		}
		n += counts[w]
	}
	return n
}
