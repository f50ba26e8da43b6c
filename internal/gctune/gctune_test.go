package gctune

import (
	"runtime/debug"
	"testing"
)

func TestPercentFor(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		live, ceiling uint64
		want          int
	}{
		// Nothing live yet: the heap minimum (4 MiB × GOGC/100) decides.
		{0, 192 * mib, 4800},
		{1 * mib, 192 * mib, 4800},
		// The goal is live × (1 + GOGC/100) = ceiling.
		{10 * mib, 192 * mib, 1820},
		{64 * mib, 192 * mib, 200},
		// From half the ceiling on, the default.
		{96 * mib, 192 * mib, 100},
		{95 * mib, 192 * mib, 102},
		{500 * mib, 192 * mib, 100},
	}
	for _, tt := range tests {
		if got := percentFor(tt.live, tt.ceiling); got != tt.want {
			t.Errorf("percentFor(%d MiB live, %d MiB) = %d, want %d", tt.live/mib, tt.ceiling/mib, got, tt.want)
		}
		goal := max(tt.live*uint64(100+percentFor(tt.live, tt.ceiling))/100, heapMinimum*uint64(percentFor(tt.live, tt.ceiling))/100)
		if goal > max(tt.ceiling, 2*tt.live) {
			t.Errorf("live %d MiB: heap goal %d MiB is above both the ceiling and twice the live heap", tt.live/mib, goal/mib)
		}
	}
}

func TestStartLeavesTheUsersSetting(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "150")
			old := debug.SetGCPercent(77)
			oldLimit := debug.SetMemoryLimit(3 << 30)
			defer debug.SetMemoryLimit(oldLimit)
			Start(Policy{Ceiling: 1 << 30, Limit: 1 << 30})
			if got := debug.SetGCPercent(old); got != 77 {
				t.Errorf("with %s set, Start changed GOGC to %d", env, got)
			}
			if got := debug.SetMemoryLimit(-1); got != 3<<30 {
				t.Errorf("with %s set, Start changed the memory limit to %d", env, got)
			}
		})
	}
}

// TestAdjustSetsPercent adjusts once without arming the finalizer chain,
// which would go on changing GOGC under the other tests of the process.
func TestAdjustSetsPercent(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	oldLimit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(oldLimit)
	newTuner(1 << 40).adjust()
	if got := debug.SetGCPercent(100); got <= 100 {
		t.Errorf("adjusting with a 1 TiB ceiling left GOGC at %d, want more than 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != oldLimit {
		t.Errorf("adjusting changed the memory limit to %d", got)
	}
}
