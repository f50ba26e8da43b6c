package translate

import (
	"sync/atomic"
	"testing"

	"github.com/gwsim/gwsim/internal/crash"
)

// TestFanOut: every index is done once, on one worker or several, and a
// worker's panic reaches the caller's goroutine as a crash.Panic (the
// CLI's recover reports it as a bug) once the other indexes are done.
func TestFanOut(t *testing.T) {
	for _, workers := range []int{1, 3} {
		var done [50]atomic.Int32
		fanOut(workers, len(done), func(i int) { done[i].Add(1) })
		for i := range done {
			if n := done[i].Load(); n != 1 {
				t.Fatalf("%d workers: index %d done %d times", workers, i, n)
			}
		}
	}
	var others atomic.Int32
	p := crash.Catch(func() {
		fanOut(3, 50, func(i int) {
			if i == 7 {
				panic("boom")
			}
			others.Add(1)
		})
	})
	if p == nil || p.Value != "boom" {
		t.Fatalf("panic on a worker: caller got %v, want boom", p)
	}
	if others.Load() != 49 {
		t.Errorf("%d other indexes done, want 49: a panic stops only its own index", others.Load())
	}
}

// TestSpreadChunks: forChunks covers [0, n) once, in chunks of sp.chunk
// routes when it spreads, in one when it does not.
func TestSpreadChunks(t *testing.T) {
	for _, tc := range []struct {
		sp     spread
		n      int
		chunks int
	}{
		{spread{workers: 1, chunk: 4}, 10, 1},
		{spread{workers: 2, chunk: 4}, 4, 1},
		{spread{workers: 2, chunk: 4}, 10, 3},
		{spread{workers: 2, chunk: 4}, 0, 1},
	} {
		if got := tc.sp.chunks(tc.n); got != tc.chunks {
			t.Errorf("%+v.chunks(%d) = %d, want %d", tc.sp, tc.n, got, tc.chunks)
		}
		covered := make([]atomic.Int32, tc.n)
		tc.sp.forChunks(tc.n, func(c, lo, hi int) {
			if c < 0 || c >= tc.chunks || lo > hi || (tc.chunks > 1 && hi-lo > tc.sp.chunk) {
				t.Errorf("%+v over %d: chunk %d is [%d, %d)", tc.sp, tc.n, c, lo, hi)
			}
			for i := lo; i < hi; i++ {
				covered[i].Add(1)
			}
		})
		for i := range covered {
			if covered[i].Load() != 1 {
				t.Errorf("%+v over %d: route %d covered %d times", tc.sp, tc.n, i, covered[i].Load())
			}
		}
	}
}
