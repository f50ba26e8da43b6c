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
// --profile=stages prints the wall time of each stage on stderr instead, and
// --profile=stage-heaps writes a heap profile of what is live at the end of
// each stage to FILE.<stage>, and --profile=peak-heap the heap profile of
// the largest live heap of the run to FILE.
// The flags are hidden: they are for measuring gwsim (docs/performance.md),
// not for using it.
type profiler struct {
	kind, output string
	cpuFile      *os.File
	stages       *stageClock
	peak         *peakHeap
	// memRate is runtime.MemProfileRate before a heap mode raised it,
	// restored at stop; 0 when unchanged.
	memRate int
}

func (p *profiler) register(root *cobra.Command) {
	fs := root.PersistentFlags()
	fs.StringVar(&p.kind, "profile", "none", "write a profile of this run: none, cpu, heap, allocs, stages, stage-heaps or peak-heap")
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
	case "stage-heaps":
		// The collections this forces lengthen every stage: the clock is
		// not printed.
		p.sampleFinely()
		clock := &stageClock{ended: p.writeStageHeap}
		c.SetContext(withStageClock(c.Context(), clock))
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
	case "peak-heap":
		p.sampleFinely()
		p.peak = startPeakHeap()
		return nil
	}
	return usageErrorf("--profile must be none, cpu, heap, allocs, stages, stage-heaps or peak-heap, not %q", p.kind)
}

// sampleFinely samples allocations finely enough to tell the stages'
// owners apart in a heap profile (every 4 KiB instead of 512 KiB), until
// stop.
func (p *profiler) sampleFinely() {
	p.memRate = runtime.MemProfileRate
	runtime.MemProfileRate = 4096
}

// writeStageHeap writes the live heap (after a collection) at the end of
// the stage called name to the profile output with the stage's name
// appended. A profile that cannot be written is reported on stderr and
// does not stop the run.
func (p *profiler) writeStageHeap(name string) {
	runtime.GC()
	f, err := os.Create(p.output + "." + name)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gwsim: writing the heap profile of stage %s: %v\n", name, err)
	}
}

// stop ends the CPU profile, writes the heap or allocs profile, or prints
// the stages on w. It is called once the command has finished, whatever
// its exit code.
func (p *profiler) stop(w io.Writer) error {
	if p.memRate != 0 {
		defer func() { runtime.MemProfileRate, p.memRate = p.memRate, 0 }()
	}
	switch {
	case p.stages != nil:
		p.stages.print(w)
		return nil
	case p.peak != nil:
		err := p.peak.stop(p.output)
		p.peak = nil
		return err
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
