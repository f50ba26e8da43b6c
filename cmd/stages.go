package cmd

import (
	"context"
	"fmt"
	"io"
	"time"
)

// stageClock records how long each stage of one run took, for
// --profile=stages: the wall-clock split docs/performance.md reports next
// to the CPU profiles. Stages are marked in the order they end.
type stageClock struct {
	last  time.Time
	names []string
	took  []time.Duration
	// ended, when set, is called as each stage ends, after its time is
	// taken (--profile=stage-heaps).
	ended func(name string)
}

type stageClockKey struct{}

func withStageClock(ctx context.Context, c *stageClock) context.Context {
	c.last = time.Now()
	return context.WithValue(ctx, stageClockKey{}, c)
}

// markStage ends the stage called name, if the run is being timed.
func markStage(ctx context.Context, name string) {
	c, _ := ctx.Value(stageClockKey{}).(*stageClock)
	if c == nil {
		return
	}
	now := time.Now()
	c.names = append(c.names, name)
	c.took = append(c.took, now.Sub(c.last))
	c.last = now
	if c.ended != nil {
		c.ended(name)
	}
}

func (c *stageClock) print(w io.Writer) {
	var total time.Duration
	for i, name := range c.names {
		fmt.Fprintf(w, "gwsim: stage %-10s %8.3fs\n", name, c.took[i].Seconds())
		total += c.took[i]
	}
	fmt.Fprintf(w, "gwsim: stage %-10s %8.3fs\n", "total", total.Seconds())
}
