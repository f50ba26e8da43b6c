package bench_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/gwsim/gwsim/bench/benchset"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/translate"
)

// BenchmarkDecode is gwsim's load stage: read, split, convert YAML to JSON,
// decode strictly into typed objects, convert to v1, deduplicate and sort.
func BenchmarkDecode(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		for b.Loop() {
			res := load.Load(load.Options{Paths: []string{dir}})
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors[0])
			}
		}
	})
}

// BenchmarkDecodeNoValidation is BenchmarkDecode with --validate=false:
// the CRD defaults are applied, nothing is pruned or validated. The
// difference to BenchmarkDecode is what admission (offline/validate) costs
// in the pipeline, on GOMAXPROCS workers.
func BenchmarkDecodeNoValidation(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		for b.Loop() {
			res := load.Load(load.Options{Paths: []string{dir}, NoValidation: true})
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors[0])
			}
		}
	})
}

// BenchmarkStore builds the indexed store offline.Run reconciles against.
// It also reports the heap a built store keeps beyond the loaded objects
// it shares (retained-B/route): its indexes and its copies of the
// objects' top levels, which the collector scans for as long as the store
// lives.
func BenchmarkStore(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, routes int) {
		l := loadDir(b, dir)
		retained := retainedBytes(func() any { return newStore(b, l) })
		for b.Loop() {
			newStore(b, l)
		}
		b.ReportMetric(float64(retained)/float64(routes), "retained-B/route")
	})
}

// retainedBytes is the live heap that the value build returns keeps
// reachable: the heap after a collection with it, less the heap after a
// collection before it was built.
func retainedBytes(build func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// BenchmarkReconcile runs the reconcilers to fixpoint on a fresh store
// (built outside the timer) and reports the passes it took.
//
// retained-B/route is the heap a settled store keeps beyond the loaded
// objects: BenchmarkStore's, with the statuses the reconcilers wrote.
func BenchmarkReconcile(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, routes int) {
		l := loadDir(b, dir)
		retained := retainedBytes(func() any { return reconciled(b, l) })
		passes := 0
		for b.Loop() {
			b.StopTimer()
			c := newStore(b, l)
			b.StartTimer()
			var err error
			if passes, err = offline.Reconcile(context.Background(), c, l.sources, options()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(passes), "passes")
		b.ReportMetric(float64(retained)/float64(routes), "retained-B/route")
	})
}

// BenchmarkReadWorld lists every kind back from a settled store and
// translates the whole world once, as offline.Run ends.
func BenchmarkReadWorld(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		l := loadDir(b, dir)
		c := reconciled(b, l)
		for b.Loop() {
			if _, err := offline.ReadWorld(context.Background(), c, l.sources, options()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTranslate is translate.Translate alone over the settled world.
func BenchmarkTranslate(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		l := loadDir(b, dir)
		res, err := offline.ReadWorld(context.Background(), reconciled(b, l), l.sources, options())
		if err != nil {
			b.Fatal(err)
		}
		in := inputOf(res.Objects, l.sources)
		opts := options().Translate
		for b.Loop() {
			translate.Translate(in, opts)
		}
	})
}

// BenchmarkRun is offline.Run: store, reconcile to fixpoint, read back and
// translate. Load and rendering are not included.
func BenchmarkRun(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		l := loadDir(b, dir)
		for b.Loop() {
			if _, err := offline.Run(context.Background(), l.objs, l.sources, options()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
