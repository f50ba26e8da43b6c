package translate

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gwsim/gwsim/internal/crash"
)

// Translate does its per-route and per-Gateway work on every core when the
// input is large and the whole Output is wanted: the whole-world
// translation at the end of a run holds every route. The output does not
// depend on how many workers ran or in which order they finished: each
// unit of work writes only its own slot of a result slice, the slots are
// read back in input order, and what routes add to the world as they are
// translated (see world.fork) is merged in input order too, so every list
// comes out as one goroutine would have built it.

// parallelMinRoutes is the fewest routes for which Translate fans out:
// below it, a fan-out's fixed cost (forks, merges, a goroutine per
// worker) buys nothing worth having.
const parallelMinRoutes = 4096

// routeChunk is how many routes a worker takes at a time: small enough
// that the workers finish together when another process takes a core for
// a while, large enough that each chunk's fork and merge cost nothing
// next to translating it.
const routeChunk = 256

// spread is how Translate shares out its work: on how many goroutines,
// and how many routes each takes at a time.
type spread struct {
	workers int
	chunk   int
}

// spreadFor is the spread of Translate over in with opts. A StatusOnly
// call stays on its caller's goroutine whatever its size: the reconcilers
// make those, one Gateway's slice of the world per call and one call per
// core already, so workers of its own would only add to theirs (and to
// the heap the collector finds live at once).
func spreadFor(in Input, opts Options) spread {
	if opts.StatusOnly || routeCount(in) < parallelMinRoutes {
		return spread{workers: 1, chunk: routeChunk}
	}
	return spread{workers: runtime.GOMAXPROCS(0), chunk: routeChunk}
}

// chunks is how many chunks sp cuts n routes into: one, when it does not
// spread them.
func (sp spread) chunks(n int) int {
	if sp.workers <= 1 || n <= sp.chunk {
		return 1
	}
	return (n + sp.chunk - 1) / sp.chunk
}

// forChunks calls do(c, lo, hi) for each chunk c of [0, n), the routes
// from lo to hi, on sp.workers goroutines; with one chunk, on the
// caller's.
func (sp spread) forChunks(n int, do func(c, lo, hi int)) {
	k := sp.chunks(n)
	size := sp.chunk
	if k == 1 {
		size = n
	}
	fanOut(sp.workers, k, func(c int) { do(c, c*size, min(n, (c+1)*size)) })
}

// fanOut calls do(i) for every i in [0, n), on up to workers goroutines
// that each take the next i as they finish one; with one worker it calls
// them in order on the caller's goroutine. A panic in do is re-raised on
// the caller's goroutine once every worker has stopped, so that the
// caller's recover sees it (see package crash).
func fanOut(workers, n int, do func(i int)) {
	if workers <= 1 || n <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var bug crash.First
	for range min(workers, n) {
		wg.Go(func() {
			bug.Catch(func() {
				for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
					do(i)
				}
			})
		})
	}
	wg.Wait()
	bug.Raise()
}
