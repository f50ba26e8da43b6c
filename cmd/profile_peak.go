package cmd

import (
	"bytes"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// peakHeap keeps the heap profile of the largest live heap a run reaches
// (--profile=peak-heap). A heap profile describes the heap as of the last
// finished collection, so the watcher looks after each collection and
// keeps the profile when that collection left more live than any before.
// A run's peak RSS follows its largest live heap (the collector lets the
// heap grow to twice what was live), which a profile taken at the end of
// a stage may miss.
type peakHeap struct {
	done    chan struct{}
	stopped chan struct{}
	best    []byte
	live    uint64
}

func startPeakHeap() *peakHeap {
	p := &peakHeap{done: make(chan struct{}), stopped: make(chan struct{})}
	go p.watch()
	return p
}

func (p *peakHeap) watch() {
	defer close(p.stopped)
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	var cycles uint64
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		metrics.Read(samples)
		if samples[0].Value.Uint64() == cycles {
			continue
		}
		cycles = samples[0].Value.Uint64()
		if live := samples[1].Value.Uint64(); live > p.live {
			var b bytes.Buffer
			if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
				p.best, p.live = b.Bytes(), live
			}
		}
	}
}

// stop ends the watch and writes the kept profile to path; the heap as it
// is now when no collection ran while watching (a small run).
func (p *peakHeap) stop(path string) error {
	close(p.done)
	<-p.stopped
	if p.best == nil {
		var b bytes.Buffer
		if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
			return err
		}
		p.best = b.Bytes()
	}
	return os.WriteFile(path, p.best, 0o644)
}
