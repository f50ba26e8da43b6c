package cmd

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/bench/benchset"
)

// Benchmarks of the renderers and of the whole CLI run (issue 7), at the
// sizes synth.Sizes returns; the other stages are benchmarked in package
// bench. Both report ns per route next to ns/op, so that sizes compare.

// BenchmarkRender renders the outcome of one pipeline run with each
// command's renderer, in its default format and in json.
func BenchmarkRender(b *testing.B) {
	commands := []struct {
		name string
		cmd  pipelineCommand
	}{
		{"translate", translateCommand()},
		{"routes", routesCommand()},
		{"ir", irCommand()},
		{"status", statusCommand()},
		{"check", checkCommand()},
	}
	benchset.ForEachSize(b, func(b *testing.B, dir string, routes int) {
		flags := &pipelineFlags{Files: []string{dir}, ControllerNames: []string{defaultControllerName}}
		out, err := runPipeline(context.Background(), flags, Streams{Err: io.Discard}, Env{})
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range commands {
			for _, f := range []format{c.cmd.formats[0], formatJSON} {
				if f == formatJSON && c.cmd.formats[0] == formatJSON {
					continue
				}
				b.Run(c.name+"-"+string(f), func(b *testing.B) {
					b.ReportAllocs()
					// Collect the pipeline's garbage first, so that the
					// first render does not pay for it.
					runtime.GC()
					start := processCPU()
					for b.Loop() {
						if err := c.cmd.render(io.Discard, f, out); err != nil {
							b.Fatal(err)
						}
					}
					// CPU time of the whole process (every core, the
					// collector included) per render: on a shared machine
					// it varies far less than the wall time.
					b.ReportMetric(float64((processCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
					benchset.ReportPerRoute(b, routes)
				})
			}
		}
	})
}

// BenchmarkExecute is the whole CLI run through ExecuteWith, output
// discarded: `gwsim -f DIR` (load, reconcile to fixpoint, translate, render
// routes, IR and status) and `gwsim check -f DIR`.
func BenchmarkExecute(b *testing.B) {
	benchset.ForEachSize(b, func(b *testing.B, dir string, routes int) {
		for _, c := range []struct {
			name string
			args []string
		}{
			{"translate", []string{"-f", dir}},
			{"check", []string{"check", "-f", dir}},
		} {
			b.Run(c.name, func(b *testing.B) {
				b.ReportAllocs()
				var stderr strings.Builder
				for b.Loop() {
					stderr.Reset()
					if code := ExecuteWith(c.args, Streams{Out: io.Discard, Err: &stderr}, Env{}); code != exitOK {
						b.Fatalf("exit %d: %s", code, stderr.String())
					}
				}
				benchset.ReportPerRoute(b, routes)
			})
		}
	})
}
