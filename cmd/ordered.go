package cmd

import (
	"bytes"
	"io"
	"runtime"

	"github.com/gwsim/gwsim/internal/crash"
)

// writeOrdered writes the n pieces that render produces to w in order,
// rendering up to GOMAXPROCS of them at once into buffers of their own.
// At most that many rendered pieces wait in memory, so a long document
// costs the memory of a few pieces, not of all of them. The first error, in
// piece order, stops the writing and is returned.
func writeOrdered(w io.Writer, n int, render func(i int, out *bytes.Buffer) error) error {
	type piece struct {
		buf bytes.Buffer
		err error
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	slots := make(chan struct{}, workers)
	done := make(chan struct{})
	defer close(done)
	results := make([]chan *piece, n)
	for i := range results {
		results[i] = make(chan *piece, 1)
	}
	go func() {
		for i := range n {
			select {
			case slots <- struct{}{}:
			case <-done:
				return
			}
			go func() {
				p := &piece{}
				if bug := crash.Catch(func() { p.err = render(i, &p.buf) }); bug != nil {
					p.err = bug
				}
				results[i] <- p
			}()
		}
	}()
	for i := range n {
		p := <-results[i]
		if bug, ok := p.err.(*crash.Panic); ok {
			panic(bug) // on the caller's goroutine, where Execute recovers it
		}
		if p.err != nil {
			return p.err
		}
		if _, err := p.buf.WriteTo(w); err != nil {
			return err
		}
		<-slots
	}
	return nil
}
