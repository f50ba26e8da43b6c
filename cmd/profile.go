package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiler writes Go pprof profiles of one CLI run, the way kubectl's
// --profile flag does: --profile=cpu|heap|allocs and --profile-output=FILE;
// --profile=stages prints the wall time of each stage on stderr instead.
// The flags are hidden: they are for measuring gwsim (docs/performance.md),
// not for using it.
type profiler struct {
	kind, output string
	cpuFile      *os.File
	stages       *stageClock
}

func (p *profiler) register(root *cobra.Command) {
	fs := root.PersistentFlags()
	fs.StringVar(&p.kind, "profile", "none", "write a profile of this run: none, cpu, heap, allocs or stages")
	fs.StringVar(&p.output, "profile-output", "gwsim.pprof", "file the --profile profile is written to")
	_ = fs.MarkHidden("profile")
	_ = fs.MarkHidden("profile-output")
}

// start begins a CPU profile or the stage clock, which ctx then carries;
// heap and allocs profiles are taken at stop.
func (p *profiler) start(c *cobra.Command) error {
	switch p.kind {
	case "none", "heap", "allocs":
		return nil
	case "stages":
		p.stages = &stageClock{}
		c.SetContext(withStageClock(c.Context(), p.stages))
		return nil
	case "cpu":
		f, err := os.Create(p.output)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		p.cpuFile = f
		return nil
	}
	return usageErrorf("--profile must be none, cpu, heap, allocs or stages, not %q", p.kind)
}

// stop ends the CPU profile, writes the heap or allocs profile, or prints
// the stages on w. It is called once the command has finished, whatever
// its exit code.
func (p *profiler) stop(w io.Writer) error {
	switch {
	case p.stages != nil:
		p.stages.print(w)
		return nil
	case p.cpuFile != nil:
		pprof.StopCPUProfile()
		err := p.cpuFile.Close()
		p.cpuFile = nil
		return err
	case p.kind == "heap" || p.kind == "allocs":
		f, err := os.Create(p.output)
		if err != nil {
			return err
		}
		runtime.GC()
		if err := pprof.Lookup(p.kind).WriteTo(f, 0); err != nil {
			f.Close()
			return fmt.Errorf("writing %s profile: %w", p.kind, err)
		}
		return f.Close()
	}
	return nil
}
