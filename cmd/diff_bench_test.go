package cmd

import (
	"context"
	"io"
	"testing"

	"github.com/gwsim/gwsim/bench/benchset"
	"github.com/gwsim/gwsim/translate/diff"
)

// BenchmarkDiffCompare compares pipeline results as gwsim diff does, at
// the benchmark sizes: a set with itself (every port unchanged, so no
// request is evaluated) and a set against nothing (every match added, and
// one request per match evaluated in both versions).
func BenchmarkDiffCompare(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, routes int) {
		flags := &pipelineFlags{Files: []string{dir}, ControllerName: defaultControllerName}
		out, err := runPipeline(context.Background(), flags, Streams{Err: io.Discard}, Env{})
		if err != nil {
			b.Fatal(err)
		}
		side := diff.Side{Output: out.Result.Output, Findings: out.Findings}
		for _, c := range []struct {
			name     string
			old, new diff.Side
		}{
			{"unchanged", side, side},
			{"all-added", diff.Side{}, side},
		} {
			b.Run(c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					diff.Compare(c.old, c.new)
				}
				benchset.ReportPerRoute(b, routes)
			})
		}
	})
}
