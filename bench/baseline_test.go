package bench_test

import (
	"github.com/gwsim/gwsim/bench/benchset"
	"runtime"
	"testing"

	"github.com/gwsim/gwsim/bench/baseline"
)

// BenchmarkBareDecodeSerial is the floor gwsim is compared against (issue
// 7): read the same files, cut them at "---" lines and decode each document
// into its typed object with apimachinery's universal deserializer (YAML to
// JSON, then JSON into the struct), on one goroutine, and nothing else: no
// strictness, no sources, no conversion, no sorting (see package baseline).
func BenchmarkBareDecodeSerial(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		for b.Loop() {
			bareDecode(b, dir, 1)
		}
	})
}

// BenchmarkBareDecodeParallel is the same floor on GOMAXPROCS goroutines,
// as gwsim's loader decodes: the fair floor for the whole-run ratio, and
// what bench/decode runs.
func BenchmarkBareDecodeParallel(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		for b.Loop() {
			bareDecode(b, dir, runtime.GOMAXPROCS(0))
		}
	})
}

func bareDecode(b *testing.B, dir string, workers int) {
	b.Helper()
	if _, err := baseline.Decode(dir, workers); err != nil {
		b.Fatal(err)
	}
}
