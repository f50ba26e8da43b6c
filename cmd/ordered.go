package cmd

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gwsim/gwsim/internal/crash"
)

// pieces is output cut into n pieces that render independently of each
// other, on any goroutine, and are written in order.
type pieces struct {
	n      int
	render func(i int, out *bytes.Buffer) error
	// write, when set, writes piece i, rendered into b, to w; otherwise b
	// is written as it is. It is called for each piece in order, so it may
	// depend on what the pieces before it rendered.
	write func(w io.Writer, i int, b []byte) error
}

// textPiece is a piece that is fixed text.
func textPiece(s string) pieces {
	return pieces{n: 1, render: func(_ int, out *bytes.Buffer) error {
		out.WriteString(s)
		return nil
	}}
}

// concatPieces is the pieces of each of ps in turn.
func concatPieces(ps ...pieces) pieces {
	var starts []int // starts[k] is the index of ps[k]'s first piece
	n := 0
	for _, p := range ps {
		starts = append(starts, n)
		n += p.n
	}
	find := func(i int) (pieces, int) {
		k := len(starts) - 1
		for starts[k] > i || ps[k].n == 0 {
			k--
		}
		return ps[k], i - starts[k]
	}
	return pieces{
		n: n,
		render: func(i int, out *bytes.Buffer) error {
			p, j := find(i)
			return p.render(j, out)
		},
		write: func(w io.Writer, i int, b []byte) error {
			p, j := find(i)
			return p.writeTo(w, j, b)
		},
	}
}

func (p pieces) writeTo(w io.Writer, i int, b []byte) error {
	if p.write != nil {
		return p.write(w, i, b)
	}
	_, err := w.Write(b)
	return err
}

// piecesAhead is how many pieces per core may be rendered and waiting to
// be written: enough that a core rarely waits for a slow piece before it,
// few enough that a long document holds a small part of itself in memory.
const piecesAhead = 4

// writePieces renders the pieces on every core, each into a buffer of its
// own, and writes them to w in order. At most piecesAhead per core are
// rendered and not yet written. The first error, in piece order, stops the
// writing and is returned; a panic in a piece is raised again on the
// caller's goroutine.
func writePieces(w io.Writer, p pieces) error {
	type result struct {
		buf *bytes.Buffer
		err error
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	ahead := piecesAhead * workers
	slots := make(chan struct{}, ahead)
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(done)
		wg.Wait()
	}()
	results := make([]chan result, p.n)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	// Buffers go back to free once written, so that the pieces reuse a
	// few buffers rather than growing one each.
	free := make(chan *bytes.Buffer, ahead)
	var next atomic.Int64
	for range min(workers, p.n) {
		wg.Go(func() {
			for {
				// A piece is taken only with a slot, and pieces are taken
				// in order: the piece the writer waits for has been taken,
				// or the slots are free for it.
				select {
				case slots <- struct{}{}:
				case <-done:
					return
				}
				i := int(next.Add(1)) - 1
				if i >= p.n {
					return
				}
				var buf *bytes.Buffer
				select {
				case buf = <-free:
					buf.Reset()
				default:
					buf = &bytes.Buffer{}
				}
				r := result{buf: buf}
				if bug := crash.Catch(func() { r.err = p.render(i, buf) }); bug != nil {
					r.err = bug
				}
				results[i] <- r
			}
		})
	}
	for i := range p.n {
		r := <-results[i]
		if bug, ok := r.err.(*crash.Panic); ok {
			panic(bug) // on the caller's goroutine, where Execute recovers it
		}
		if r.err != nil {
			return r.err
		}
		if err := p.writeTo(w, i, r.buf.Bytes()); err != nil {
			return err
		}
		select {
		case free <- r.buf:
		default:
		}
		<-slots
	}
	return nil
}
