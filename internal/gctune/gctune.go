// Package gctune paces a short-lived process's garbage collector by the
// size of its live heap: loose while it is small, the default in the
// middle, tighter once it is large.
//
// gwsim is a single-shot command: it reads every manifest, builds the
// whole world and prints it, and most of what it allocates while loading
// is garbage a moment later while the live heap is still small. With
// GOGC=100 the collector then runs every few megabytes (at the 10k-route
// set about two dozen cycles, a fifth of the run's CPU) to keep a heap of
// a few tens of megabytes, far below what the run needs at its peak
// anyway. The Go compiler does the same for the same reason
// (cmd/compile's base.AdjustStartingHeap): until the live heap is large,
// GOGC is set so that the next collection starts at a fixed heap size;
// once the live heap is more than half that size, GOGC is the default
// again and the heap never exceeds what it would have been without this
// package.
//
// At the other end, GOGC=100 lets the heap grow to twice what the last
// cycle found live, and a process's peak RSS follows its largest heap:
// at 100,000 routes about 1 GB is live while the world is reconciled and
// translated, and the heap reached 1.7 GB. Policy.Limit is a soft memory
// limit (debug.SetMemoryLimit) for that end: the collector runs more
// often only when the process's memory nears it, and a live heap so large
// that the limit would leave it less than Policy.MinPercent of room raises
// the limit, so that the collector never runs much more often than at
// GOGC=MinPercent (the runtime's own guard against a limit that is too
// tight caps the collector at half the CPU, which is far more). The CPU
// this costs is measured in docs/performance.md.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// defaultPercent is the lowest GOGC set: the default, so that the heap is
// held tighter than without gctune only by the soft limit.
const defaultPercent = 100

// heapMinimum is the runtime's smallest heap goal at GOGC=100; it scales
// with GOGC (4 MiB × GOGC/100), so while the live heap is tiny it, not
// the live heap, decides where the next collection starts.
const heapMinimum = 4 << 20

// liveMetric is the heap the last collection found live.
const liveMetric = "/gc/heap/live:bytes"

// Policy says where the collector starts its cycles, by the live heap
// the last cycle found.
type Policy struct {
	// Ceiling is the heap size at which the next collection starts while
	// less than half of it is live.
	Ceiling uint64
	// Limit, when not zero, is the soft memory limit: the total memory
	// of the Go runtime the collector tries to stay under, as long as
	// that leaves MinPercent of the live heap above it.
	Limit      uint64
	MinPercent int
}

// Start makes each collection, after it ends, set GOGC and the soft
// memory limit as p says from the heap it found live (see percentFor and
// limitFor). It does nothing when the user set
// GOGC or GOMEMLIMIT: their setting wins.
func Start(p Policy) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	t := newTuner(p)
	t.adjust()
	t.arm()
}

func newTuner(p Policy) *tuner {
	return &tuner{policy: p, sample: []metrics.Sample{{Name: liveMetric}}}
}

type tuner struct {
	policy Policy
	sample []metrics.Sample
}

// sentinel is an object nothing refers to: the collection that finds it
// unreachable runs its finalizer, which adjusts GOGC and arms a new one
// for the next cycle. The field keeps it a heap object of its own (a
// zero-size object may share an address and is never finalized).
type sentinel struct{ t *tuner }

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, func(s *sentinel) {
		s.t.adjust()
		s.t.arm()
	})
}

// adjust sets GOGC, and the soft memory limit when the policy has one,
// from the live heap the last cycle found.
func (t *tuner) adjust() {
	metrics.Read(t.sample)
	live := uint64(0)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	debug.SetGCPercent(percentFor(live, t.policy.Ceiling))
	if t.policy.Limit > 0 {
		debug.SetMemoryLimit(int64(limitFor(live, t.policy)))
	}
}

// limitFor is the soft memory limit for live bytes of live heap: p.Limit,
// or live plus p.MinPercent of it when that is more.
func limitFor(live uint64, p Policy) uint64 {
	return max(p.Limit, live*uint64(100+p.MinPercent)/100)
}

// percentFor is the GOGC that puts the next collection at ceiling bytes
// of heap when live bytes are live, and never below defaultPercent.
func percentFor(live, ceiling uint64) int {
	if live*(100+defaultPercent)/100 >= ceiling {
		return defaultPercent
	}
	// The goal is the larger of live×(1+p/100) and heapMinimum×p/100;
	// both must stay within ceiling.
	p := ceiling * 100 / heapMinimum
	if live > 0 {
		p = min(p, (ceiling-live)*100/live)
	}
	return int(max(p, defaultPercent))
}
