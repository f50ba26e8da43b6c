package offline

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/offline/controller"
)

// defaultMaxPasses bounds the loop when Options.MaxPasses is 0. A world of
// Gateways and routes settles in two passes (one that writes, one that
// confirms and reconciles what the first requeued); the slack covers
// chains such as ListenerSets.
const defaultMaxPasses = 10

// NotSettledError is returned when MaxPasses passes all changed something.
type NotSettledError struct {
	Passes int
	// Changed are the objects whose status or generation changed in the
	// last pass, sorted.
	Changed []diag.ObjectRef
}

func (e *NotSettledError) Error() string {
	names := make([]string, len(e.Changed))
	for i, r := range e.Changed {
		names[i] = r.String()
	}
	return fmt.Sprintf("status did not settle after %d passes; still changing: %s", e.Passes, strings.Join(names, ", "))
}

// target is one reconciled kind: how to list it and what reconciles it.
// A target without a reconciler is only watched: its status is written by
// another kind's reconciler, and listing it lets a pass that changes only
// that status count as a change.
type target struct {
	kind    string
	newList func() client.ObjectList
	r       reconcile.Reconciler
	// everyPass reconciles every object of the kind on every pass, not
	// only those a write requeued: its reconciler reads status that no
	// index ties to it (EGPolicyReconciler).
	everyPass bool
}

// targets returns the reconciled kinds in pass order.
func targets(env controller.Env) []target {
	ts := []target{
		{kind: "GatewayClass", newList: func() client.ObjectList { return &gwv1.GatewayClassList{} }, r: &controller.GatewayClassReconciler{Env: env}},
		{kind: "Gateway", newList: func() client.ObjectList { return &gwv1.GatewayList{} }, r: &controller.GatewayReconciler{Env: env}},
		{kind: "ListenerSet", newList: func() client.ObjectList { return &gwv1.ListenerSetList{} }}, // written by GatewayReconciler
	}
	for _, k := range controller.RouteKinds() {
		ts = append(ts, target{kind: k.Kind, newList: k.NewList, r: &controller.RouteReconciler{Env: env, Kind: k}})
	}
	ts = append(ts, target{kind: "BackendTLSPolicy", newList: func() client.ObjectList { return &gwv1.BackendTLSPolicyList{} },
		r: &controller.BackendTLSPolicyReconciler{Env: env}},
		target{kind: "Backend", newList: func() client.ObjectList { return &egv1a1.BackendList{} }}) // written by GatewayReconciler
	// Envoy Gateway's policies come last: they read the status of
	// Gateways and routes that the reconcilers above write.
	for _, k := range controller.EGPolicyKinds() {
		ts = append(ts, target{kind: string(k.Kind), newList: k.NewList, r: &controller.EGPolicyReconciler{Env: env, Kind: k}, everyPass: true})
	}
	return ts
}

// Reconcile runs the reconcilers against c until a pass changes nothing
// (see the package doc) and returns the number of passes taken. The
// conformance harness calls it before any read that follows the suite's
// writes, so that the suite sees settled status as from a live controller.
func Reconcile(ctx context.Context, c client.Client, sources diag.Sources, opts Options) (passes int, err error) {
	return reconcileWith(ctx, c, sources, opts, nil)
}

func reconcileWith(ctx context.Context, c client.Client, sources diag.Sources, opts Options, tf controller.TranslateFunc) (int, error) {
	return reconcileThrough(ctx, newWatcher(c, controller.Indexes()), sources, opts, tf)
}

// reconcileThrough is reconcileWith with the watcher given: the reconcilers
// read and write through w.
func reconcileThrough(ctx context.Context, w *watcher, sources diag.Sources, opts Options, tf controller.TranslateFunc) (int, error) {
	env := controller.Env{Client: w, Options: opts.Translate, Sources: sources, OtherObjects: opts.OtherObjects, Translate: tf,
		Reads: controller.NewReadMemo(w.readEpoch), Policies: controller.NewPolicyMemo(w.policyEpoch)}
	return fixpoint(ctx, w, targets(env), opts.maxPasses(), opts.workers(), opts.afterWrites)
}

func (o Options) workers() int {
	if o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

func (o Options) maxPasses() int {
	if o.MaxPasses <= 0 {
		return defaultMaxPasses
	}
	return o.MaxPasses
}

// fixpoint reconciles every object of every target, then, pass after
// pass, the objects that the previous pass's writes requeued (see watcher),
// until the snapshots taken around a pass are equal or maxPasses passes
// changed something. The reconcilers of ts must read and write through w.
// afterWrites, when set, is called after the reconciles of each pass that
// wrote something, before the snapshot that tells whether it changed
// anything: a pass that wrote nothing changed nothing.
func fixpoint(ctx context.Context, w *watcher, ts []target, maxPasses, workers int, afterWrites func()) (int, error) {
	before, err := takeSnapshot(ctx, w, ts)
	if err != nil {
		return 0, err
	}
	queue := before.byKind
	for pass := 1; ; pass++ {
		if err := ctx.Err(); err != nil {
			return pass - 1, err
		}
		w.startPass(ts, queue)
		writes := w.writeCount()
		for _, t := range ts {
			if t.r == nil {
				continue
			}
			refs := queue[t.kind]
			if t.everyPass {
				refs = before.byKind[t.kind]
			}
			if err := reconcileAll(ctx, w, t.r, refs, workers); err != nil {
				return pass, fmt.Errorf("pass %d: %w", pass, err)
			}
		}
		if afterWrites != nil && w.writeCount() != writes {
			afterWrites()
		}
		after, err := takeSnapshot(ctx, w, ts)
		if err != nil {
			return pass, err
		}
		if !before.differs(after) {
			return pass, nil
		}
		if pass >= maxPasses {
			return pass, &NotSettledError{Passes: pass, Changed: before.diff(after)}
		}
		queue = w.queued(after)
		before = after
	}
}

// reconcileAll reconciles every object of refs on up to workers goroutines,
// as a manager with MaxConcurrentReconciles does: the objects of one kind
// are independent requests, and reconcilers that write status shared with
// others (a route attached to two Gateways) retry on conflict. The outcome
// does not depend on the order, since every merge is a function of the
// contents. The error returned is that of the first ref, in refs order,
// that failed.
func reconcileAll(ctx context.Context, w *watcher, r reconcile.Reconciler, refs []diag.ObjectRef, workers int) error {
	errs := make([]error, len(refs))
	next := make(chan int)
	var wg sync.WaitGroup
	// A reconciler's panic is re-raised here once the workers are done
	// (the CLI reports it as a bug); the worker goes on with the next ref.
	var bug crash.First
	for range min(workers, len(refs)) {
		wg.Go(func() {
			for i := range next {
				req := reconcile.Request{NamespacedName: client.ObjectKey{Namespace: refs[i].Namespace, Name: refs[i].Name}}
				bug.Catch(func() {
					if _, err := r.Reconcile(w.begin(ctx, refs[i]), req); err != nil {
						errs[i] = fmt.Errorf("reconciling %s: %w", refs[i], err)
					}
				})
			}
		})
	}
	for i := range refs {
		next <- i
	}
	close(next)
	wg.Wait()
	bug.Raise()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
