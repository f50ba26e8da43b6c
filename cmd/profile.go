package cmd

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiler writes Go pprof profiles of one CLI run, the way kubectl's
// --profile flag does: --profile=cpu|heap|allocs and --profile-output=FILE.
// The flags are hidden: they are for measuring gwsim (docs/performance.md),
// not for using it.
type profiler struct {
	kind, output string
	cpuFile      *os.File
}

func (p *profiler) register(root *cobra.Command) {
	fs := root.PersistentFlags()
	fs.StringVar(&p.kind, "profile", "none", "write a profile of this run: none, cpu, heap or allocs")
	fs.StringVar(&p.output, "profile-output", "gwsim.pprof", "file the --profile profile is written to")
	_ = fs.MarkHidden("profile")
	_ = fs.MarkHidden("profile-output")
}

// start begins a CPU profile; heap and allocs profiles are taken at stop.
func (p *profiler) start() error {
	switch p.kind {
	case "none", "heap", "allocs":
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
	return usageErrorf("--profile must be none, cpu, heap or allocs, not %q", p.kind)
}

// stop ends the CPU profile or writes the heap or allocs profile. It is
// called once the command has finished, whatever its exit code.
func (p *profiler) stop() error {
	switch {
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
