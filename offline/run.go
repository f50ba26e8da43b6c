package offline

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// Options configure a run.
type Options struct {
	Translate translate.Options
	// MaxPasses caps the fixpoint loop; 0 means 10.
	MaxPasses int
	// Workers is how many objects of one kind are reconciled at once; 0
	// means GOMAXPROCS. The outcome does not depend on it.
	Workers int
	// Stage, when set, is called as Run finishes each of its stages:
	// "store", "reconcile" and "read" (for timing them).
	Stage func(name string)

	// afterWrites, when set, is called after the reconciles of each pass
	// that wrote something, before the loop looks whether the pass changed
	// anything (see fixpoint and speculation).
	afterWrites func()
	// Store builds the client; nil means IndexedStore.
	Store StoreFactory
	// OtherObjects name the objects of the input whose kinds gwsim does not
	// decode (load.Result.Others). They are not in the store: the
	// reconcilers read them from here, as read-only data, and hand each
	// Translate the ones its slice references (translate.Input.OtherObjects).
	OtherObjects []translate.OtherObject
}

// Result is the world after the fixpoint.
type Result struct {
	// Objects is every object read back through the client (one List per
	// kind), sorted by kind, namespace and name. From a store that shares
	// its objects (IndexedStore) they are the stored objects themselves,
	// not copies: they must not be modified.
	Objects []client.Object
	// Output is Translate over the whole world as read back, with Sources.
	Output translate.Output
	// Passes is the number of passes taken, the last one (which changed
	// nothing) included.
	Passes int
}

// Run loads objs into a store, reconciles to fixpoint and reads the world
// back. objs are not modified, and must not be while Run runs or while
// Result is in use: the store and Result may share their contents. Run
// keeps no reference to objs (or to the slice) once the store is built,
// so a caller that drops its own lets their top levels go: the store holds
// a copy of each. If the loop does not settle, the error is a
// *NotSettledError and no Result is returned.
func Run(ctx context.Context, objs []client.Object, sources diag.Sources, opts Options) (*Result, error) {
	return run(ctx, objs, sources, opts, nil)
}

// run is Run with the Translate function replaceable, for tests of the
// loop's mechanics; nil means translate.Translate.
func run(ctx context.Context, objs []client.Object, sources diag.Sources, opts Options, tf controller.TranslateFunc) (*Result, error) {
	factory := opts.Store
	if factory == nil {
		factory = IndexedStore
	}
	c, err := factory(scheme.New(), objs, controller.Indexes())
	if err != nil {
		return nil, err
	}
	opts.stage("store")
	// Every write of the loop goes through w (nothing else holds c), so
	// its write count tells the speculation whether the world moved.
	w := newWatcher(c, controller.Indexes())
	// The read-back needs only the input's types: holding objs would keep
	// every loaded object's top level alive next to the store's copy.
	spec := newSpeculation(ctx, c, typesOf(objs), sources, opts, tf)
	spec.writes = w.writeCount
	defer spec.cancel()
	opts.afterWrites = spec.start
	passes, err := reconcileThrough(ctx, w, sources, opts, tf)
	if err != nil {
		return nil, err
	}
	opts.stage("reconcile")
	res, err := spec.result()
	if err != nil {
		return nil, err
	}
	opts.stage("read")
	res.Passes = passes
	return res, nil
}

func (o Options) stage(name string) {
	if o.Stage != nil {
		o.Stage(name)
	}
}

// ReadWorld reads the world back from c, as Run does after its fixpoint,
// and translates it: Objects holds every kind translate.Input holds, and
// Output is Translate over them. The conformance harness calls it after
// Reconcile, to see what the data plane would be programmed with. Passes is
// 0: ReadWorld does not reconcile.
func ReadWorld(ctx context.Context, c client.Client, sources diag.Sources, opts Options) (*Result, error) {
	return read(ctx, c, nil, sources, opts, nil)
}

// read lists every Input kind (and every other kind of which others holds
// an object) through c and translates the Input they make up.
func read(ctx context.Context, c client.Client, others []client.Object, sources diag.Sources, opts Options, tf controller.TranslateFunc) (*Result, error) {
	objects, in, err := readBack(ctx, c, others)
	if err != nil {
		return nil, err
	}
	in.Sources = sources
	in.OtherObjects = opts.OtherObjects
	if tf == nil {
		tf = translate.Translate
	}
	return &Result{Objects: objects, Output: tf(in, opts.Translate)}, nil
}
