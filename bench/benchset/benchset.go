// Package benchset runs a benchmark over the standard generated sets
// (bench/synth) at the sizes chosen for this run, for the benchmarks of
// package bench (the stages) and of package cmd (renderers, whole CLI).
package benchset

import (
	"testing"

	"github.com/gwsim/gwsim/bench/synth"
)

// ForEachSize runs bench once per size of synth.Sizes, as a sub-benchmark
// named after the size, with the standard set for that size written to a
// directory of its own and the number of routes it holds. It reports
// allocations, and the time per route next to ns/op so that sizes compare;
// a bench that runs sub-benchmarks of its own reports theirs with
// ReportPerRoute.
func ForEachSize(b *testing.B, bench func(b *testing.B, dir string, routes int)) {
	sizes, err := synth.Sizes()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		b.Run(synth.SizeName(n), func(b *testing.B) {
			dir := b.TempDir()
			if err := synth.Generate(synth.Standard(n)).WriteDir(dir); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			bench(b, dir, n)
			ReportPerRoute(b, n)
		})
	}
}

// ReportPerRoute reports b's time per route next to ns/op.
func ReportPerRoute(b *testing.B, routes int) {
	if b.N > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(routes), "ns/route")
	}
}
