package bench_test

import (
	"context"
	"github.com/gwsim/gwsim/bench/benchset"
	"testing"

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
func BenchmarkStore(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		l := loadDir(b, dir)
		for b.Loop() {
			newStore(b, l)
		}
	})
}

// BenchmarkReconcile runs the reconcilers to fixpoint on a fresh store
// (built outside the timer) and reports the passes it took.
func BenchmarkReconcile(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, _ int) {
		l := loadDir(b, dir)
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
