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
// cycle found live, and a process's peak RSS follows its largest heap.
// Policy.Limit is a soft memory limit (debug.SetMemoryLimit), set once:
// the collector runs more often only when the process's memory nears it.
// A live heap close to the limit would make the collector run almost
// continuously; the runtime's own guard caps that at half the CPU.
// docs/performance.md has the measurements behind both numbers.
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
// the last cycle found, and how much memory it tries to stay under.
type Policy struct {
	// Ceiling is the heap size at which the next collection starts while
	// less than half of it is live.
	Ceiling uint64
	// Limit, when not zero, is the soft memory limit: the total memory
	// of the Go runtime the collector tries to stay under.
	Limit int64
}

// Start sets the soft memory limit p says, and makes each collection,
// after it ends, set GOGC from the heap it found live (see percentFor). It
// does nothing when the user set GOGC or GOMEMLIMIT: their setting wins.
func Start(p Policy) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if p.Limit > 0 {
		debug.SetMemoryLimit(p.Limit)
	}
	t := newTuner(p.Ceiling)
	t.adjust()
	t.arm()
}

func newTuner(ceiling uint64) *tuner {
	return &tuner{ceiling: ceiling, sample: []metrics.Sample{{Name: liveMetric}}}
}

type tuner struct {
	ceiling uint64
	sample  []metrics.Sample
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

// adjust sets GOGC from the live heap the last cycle found.
func (t *tuner) adjust() {
	metrics.Read(t.sample)
	live := uint64(0)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	debug.SetGCPercent(percentFor(live, t.ceiling))
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
