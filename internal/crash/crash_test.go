package crash

import (
	"strings"
	"sync"
	"testing"
)

func TestCatch(t *testing.T) {
	if p := Catch(func() {}); p != nil {
		t.Errorf("Catch of a clean function = %v", p)
	}
	p := Catch(func() { panic("boom") })
	if p == nil || p.Value != "boom" || !strings.Contains(string(p.Stack), "TestCatch") {
		t.Fatalf("Catch = %+v, want boom with the stack of the panicking goroutine", p)
	}
	// A carried panic is passed on as it is, keeping its first stack.
	if again := Catch(func() { panic(p) }); again != p {
		t.Errorf("Catch of a carried panic = %v, want the same value", again)
	}
}

// TestFirst: panics on workers reach the waiting goroutine, the first one
// kept; workers that do not panic are unaffected.
func TestFirst(t *testing.T) {
	var first First
	var wg sync.WaitGroup
	completed := make([]bool, 4)
	for i := range completed {
		wg.Go(func() {
			completed[i] = first.Catch(func() {
				if i%2 == 1 {
					panic(i)
				}
			})
		})
	}
	wg.Wait()
	if !completed[0] || completed[1] || !completed[2] || completed[3] {
		t.Errorf("completed = %v", completed)
	}
	p := Catch(first.Raise)
	if p == nil || (p.Value != 1 && p.Value != 3) {
		t.Errorf("Raise = %v, want the panic of worker 1 or 3", p)
	}
	var clean First
	if p := Catch(clean.Raise); p != nil {
		t.Errorf("Raise without a panic = %v", p)
	}
}
