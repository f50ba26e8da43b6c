package offline

import (
	"context"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/offline/controller"
)

// speculation reads the world back and translates it while the fixpoint
// loop takes its snapshots and runs its confirming pass. Most runs settle
// in two passes and the second changes nothing, so the world after the
// reconciles of the first pass is usually the final one; translating it
// alongside the rest of the loop takes the whole-world Translate off the
// critical path on a machine with a core to spare. The guess is only used when it is provably right:
// result reads the world again and keeps the speculative Output only if
// every object is the same object at the same resourceVersion, which
// Translate, a pure function of the objects, cannot tell apart. When the
// run can count every write to the store (writes), a count unchanged since
// the guess started proves the same without reading the world again.
type speculation struct {
	ctx     context.Context
	c       client.Client
	objs    []client.Object
	sources diag.Sources
	opts    Options
	tf      controller.TranslateFunc

	pending chan guess // the latest guess; nil until start
	stop    context.CancelFunc
	// writes, when set, counts every write made to c; startWrites is
	// its value when the latest guess started.
	writes      func() uint64
	startWrites uint64
}

// guess is one speculative read and translation.
type guess struct {
	res *Result
	err error
}

func newSpeculation(ctx context.Context, c client.Client, objs []client.Object, sources diag.Sources, opts Options, tf controller.TranslateFunc) *speculation {
	return &speculation{ctx: ctx, c: c, objs: objs, sources: sources, opts: opts, tf: tf, stop: func() {}}
}

// start begins a guess from the world as it is now, replacing any earlier
// one (whose result is then never waited for).
func (s *speculation) start() {
	s.stop()
	ctx, stop := context.WithCancel(s.ctx)
	s.stop = stop
	if s.writes != nil {
		s.startWrites = s.writes()
	}
	ch := make(chan guess, 1)
	s.pending = ch
	go func() {
		var g guess
		if p := crash.Catch(func() { g.res, g.err = read(ctx, s.c, s.objs, s.sources, s.opts, s.tf) }); p != nil {
			g = guess{err: p}
		}
		ch <- g
	}()
}

func (s *speculation) cancel() { s.stop() }

// result is read's answer for the world as it is now: the latest guess
// when it read exactly these objects, else a fresh read. It must not be
// called while anyone writes.
func (s *speculation) result() (*Result, error) {
	if s.pending == nil {
		return read(s.ctx, s.c, s.objs, s.sources, s.opts, s.tf)
	}
	if s.writes != nil && s.writes() == s.startWrites {
		// Nothing was written since the guess started, so it read the
		// world as it is now.
		if g := s.wait(); g.err == nil {
			return g.res, nil
		}
		return read(s.ctx, s.c, s.objs, s.sources, s.opts, s.tf)
	}
	objects, _, err := readBack(s.ctx, s.c, s.objs)
	if err != nil {
		return nil, err
	}
	g := s.wait()
	if g.err == nil && sameObjects(g.res.Objects, objects) {
		return g.res, nil
	}
	return read(s.ctx, s.c, s.objs, s.sources, s.opts, s.tf)
}

// wait returns the latest guess once it is done, re-raising its panic on
// the caller's goroutine, where the CLI reports it.
func (s *speculation) wait() guess {
	g := <-s.pending
	if p, ok := g.err.(*crash.Panic); ok {
		panic(p)
	}
	return g
}

// sameObjects reports whether two read-backs hold the same objects, in the
// same order, each at the same resourceVersion. Stores give every write a
// new resourceVersion, so equal versions mean equal objects.
func sameObjects(a, b []client.Object) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if reflect.TypeOf(x) != reflect.TypeOf(y) || x.GetNamespace() != y.GetNamespace() || x.GetName() != y.GetName() ||
			x.GetResourceVersion() != y.GetResourceVersion() || x.GetUID() != y.GetUID() {
			return false
		}
	}
	return true
}
