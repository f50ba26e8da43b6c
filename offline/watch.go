package offline

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
)

// watcher is the client the reconcilers of one fixpoint loop read and write
// through. It stands in for the watches of a running manager: every write
// that goes through it enqueues, for the next pass, the reconciles that
// depend on what it changed, as controller-runtime's event handlers map a
// watched object to the requests of the controllers that read it. Reads go
// straight to the store.
//
// Which reconciles depend on a write follows the controllers' predicates
// and the index table (controller.Indexes):
//
//   - A status write requeues the written object's own reconcile, unless
//     that reconcile made the write itself (a reconcile accounts for its own
//     writes; the usual GenerationChangedPredicate does the same), and the
//     objects named by an index over the kind (controller.Index.Requeues)
//     whose values the write changed: a BackendTLSPolicy that gains or loses
//     a Gateway's ancestor entry requeues that Gateway. No reconciler reads
//     the status others write except through its own share of it, so a
//     route's status written by one Gateway requeues no Gateway.
//   - Any other write (spec, metadata, create, delete) requeues every
//     object. The reconcilers never make one; the conservative answer keeps
//     the loop right for any reconciler that does.
//
// A reconcile that is still to run in the current pass is not queued again:
// it reads what the write left.
type watcher struct {
	client.Client
	// reconciled are the kinds that have a reconciler.
	reconciled map[string]bool
	// requeues are the indexes whose values name objects to requeue, by
	// the Go type of the indexed objects.
	requeues map[reflect.Type][]controller.Index

	// writes counts the writes made through the watcher, successful or
	// not (see writeCount).
	writes atomic.Uint64
	// others counts the writes that may change anything but the status
	// of a reconciled or watched kind (see readEpoch).
	others atomic.Uint64
	// beyondPolicies counts the successful writes other than the status
	// of Envoy Gateway's policies (see policyEpoch).
	beyondPolicies atomic.Uint64
	// policyKinds are the kinds whose status writes policyEpoch leaves
	// out.
	policyKinds map[string]bool

	mu sync.Mutex
	// pending are the current pass's requests not started yet.
	pending map[diag.ObjectRef]bool
	// next are the requests queued for the next pass.
	next map[diag.ObjectRef]bool
	// all is set by a write that requeues every object.
	all bool
}

// newWatcher wraps c; idx is the index table the reconcilers list with.
func newWatcher(c client.Client, idx []controller.Index) *watcher {
	w := &watcher{Client: c, reconciled: map[string]bool{}, requeues: map[reflect.Type][]controller.Index{},
		pending: map[diag.ObjectRef]bool{}, next: map[diag.ObjectRef]bool{}, policyKinds: map[string]bool{}}
	for _, k := range controller.EGPolicyKinds() {
		w.policyKinds[string(k.Kind)] = true
	}
	for _, i := range idx {
		if i.Requeues != "" {
			t := reflect.TypeOf(i.Object)
			w.requeues[t] = append(w.requeues[t], i)
		}
	}
	return w
}

// startPass makes queue (refs by kind) the pending requests of a pass of
// ts.
func (w *watcher) startPass(ts []target, queue map[string][]diag.ObjectRef) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, t := range ts {
		w.reconciled[t.kind] = t.r != nil
	}
	clear(w.pending)
	clear(w.next)
	w.all = false
	for _, refs := range queue {
		for _, r := range refs {
			w.pending[r] = true
		}
	}
}

// begin marks the request as started and returns the context its
// reconcile runs with, which names it as the writer of its writes.
func (w *watcher) begin(ctx context.Context, req diag.ObjectRef) context.Context {
	w.mu.Lock()
	delete(w.pending, req)
	w.mu.Unlock()
	return context.WithValue(ctx, writerKey{}, req)
}

// queued returns the requests queued for the next pass, by kind in
// namespace/name order; everything in all when a write requeued every
// object.
func (w *watcher) queued(all snapshot) map[string][]diag.ObjectRef {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.all {
		return all.byKind
	}
	out := map[string][]diag.ObjectRef{}
	for r := range w.next {
		out[r.Kind] = append(out[r.Kind], r)
	}
	for _, refs := range out {
		slices.SortFunc(refs, diag.ObjectRef.Compare)
	}
	return out
}

// writerKey is the context key under which begin stores the request a
// reconcile serves.
type writerKey struct{}

// touch queues req for the next pass unless the writer is req itself or
// req has still to run in this pass. w.mu must be held.
func (w *watcher) touch(req diag.ObjectRef, writer any) {
	if req == writer || w.pending[req] {
		return
	}
	w.next[req] = true
}

// writeCount is the number of writes made through the watcher so far. A
// write is counted when it returns, so that a count read after the
// writers are done covers everything they wrote.
func (w *watcher) writeCount() uint64 { return w.writes.Load() }

// readEpoch is the count of writes that may have changed anything other
// than the status of the kinds the loop reconciles or watches, which are
// the only things its reconcilers write: while it stays the same, a read
// that depends on nothing else gives the same answer
// (controller.ReadMemo). A write is counted when it returns, after the
// store changed.
func (w *watcher) readEpoch() uint64 { return w.others.Load() }

// policyEpoch is the count of writes that may have changed anything but
// the status of Envoy Gateway's policies: what their attachment reads
// (controller.PolicyMemo). The loop reconciles each kind in turn, so
// while the policies are reconciled it stays the same, and their
// attachment is decided once for them all rather than once per policy.
func (w *watcher) policyEpoch() uint64 { return w.beyondPolicies.Load() }

// statusWritten records a status write of obj, whose stored state before
// the write was old (nil if unknown).
func (w *watcher) statusWritten(ctx context.Context, old, obj client.Object) {
	kind := w.kindOf(obj)
	if !w.policyKinds[kind] {
		w.beyondPolicies.Add(1)
	}
	w.writes.Add(1)
	writer := ctx.Value(writerKey{})
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.reconciled[kind]; !ok {
		w.others.Add(1)
	}
	if w.reconciled[kind] {
		w.touch(diag.ObjectRef{Kind: kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}, writer)
	}
	for _, i := range w.requeues[reflect.TypeOf(obj)] {
		for _, v := range changedValues(i.Extract, old, obj) {
			ns, name, _ := strings.Cut(v, "/")
			w.touch(diag.ObjectRef{Kind: i.Requeues, Namespace: ns, Name: name}, writer)
		}
	}
}

// changedValues returns the index values of obj that old does not have and
// those of old that obj does not have; every value of obj when old is
// unknown.
func changedValues(extract client.IndexerFunc, old, obj client.Object) []string {
	next := extract(obj)
	if old == nil {
		return next
	}
	prev := extract(old)
	var out []string
	for _, v := range next {
		if !slices.Contains(prev, v) {
			out = append(out, v)
		}
	}
	for _, v := range prev {
		if !slices.Contains(next, v) {
			out = append(out, v)
		}
	}
	return out
}

// anyWritten records a write that requeues every object.
func (w *watcher) anyWritten() {
	w.others.Add(1)
	w.beyondPolicies.Add(1)
	w.writes.Add(1)
	w.mu.Lock()
	w.all = true
	w.mu.Unlock()
}

func (w *watcher) kindOf(obj runtime.Object) string {
	gvk, err := apiutil.GVKForObject(obj, w.Scheme())
	if err != nil {
		return ""
	}
	return gvk.Kind
}

// stored returns the stored object obj names before a write, when an
// index may requeue on its change; nil otherwise or when it cannot be read
// (the write then fails too, or every value counts as changed).
func (w *watcher) stored(ctx context.Context, obj client.Object) client.Object {
	t := reflect.TypeOf(obj)
	if len(w.requeues[t]) == 0 || t.Kind() != reflect.Pointer {
		return nil
	}
	old := reflect.New(t.Elem()).Interface().(client.Object)
	if err := w.Client.Get(ctx, client.ObjectKeyFromObject(obj), old, controller.CachedRead); err != nil {
		return nil
	}
	if old.GetResourceVersion() != obj.GetResourceVersion() {
		return nil // the write conflicts, or overwrites something unseen
	}
	return old
}

func (w *watcher) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	return w.wrote(w.Client.Create(ctx, obj, opts...))
}

func (w *watcher) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return w.wrote(w.Client.Update(ctx, obj, opts...))
}

func (w *watcher) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return w.wrote(w.Client.Patch(ctx, obj, patch, opts...))
}

func (w *watcher) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	return w.wrote(w.Client.Apply(ctx, obj, opts...))
}

func (w *watcher) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	return w.wrote(w.Client.Delete(ctx, obj, opts...))
}

func (w *watcher) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	return w.wrote(w.Client.DeleteAllOf(ctx, obj, opts...))
}

// wrote records a successful non-status write (a failed one may have
// written part of its work all the same: DeleteAllOf).
func (w *watcher) wrote(err error) error {
	w.anyWritten()
	return err
}

func (w *watcher) Status() client.SubResourceWriter {
	return statusWatcher{w: w, inner: w.Client.Status()}
}

func (w *watcher) SubResource(name string) client.SubResourceClient {
	return subResourceWatcher{SubResourceClient: w.Client.SubResource(name), w: w}
}

// statusWatcher records the status writes of a watcher.
type statusWatcher struct {
	w     *watcher
	inner client.SubResourceWriter
}

func (s statusWatcher) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	return s.w.wrote(s.inner.Create(ctx, obj, sub, opts...))
}

func (s statusWatcher) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	old := s.w.stored(ctx, obj)
	if err := s.inner.Update(ctx, obj, opts...); err != nil {
		s.w.writes.Add(1)
		return err
	}
	s.w.statusWritten(ctx, old, obj)
	return nil
}

func (s statusWatcher) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	if err := s.inner.Patch(ctx, obj, patch, opts...); err != nil {
		s.w.writes.Add(1)
		return err
	}
	s.w.statusWritten(ctx, nil, obj)
	return nil
}

func (s statusWatcher) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	return s.w.wrote(s.inner.Apply(ctx, obj, opts...))
}

// subResourceWatcher treats every write to a named subresource as one that
// requeues everything: the reconcilers use Status() alone.
type subResourceWatcher struct {
	client.SubResourceClient
	w *watcher
}

func (s subResourceWatcher) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	return s.w.wrote(s.SubResourceClient.Create(ctx, obj, sub, opts...))
}

func (s subResourceWatcher) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.w.wrote(s.SubResourceClient.Update(ctx, obj, opts...))
}

func (s subResourceWatcher) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.w.wrote(s.SubResourceClient.Patch(ctx, obj, patch, opts...))
}

func (s subResourceWatcher) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	return s.w.wrote(s.SubResourceClient.Apply(ctx, obj, opts...))
}

// StoredObject hands out the store's object itself when the store can
// (controller.StoredGetter), else a copy, as any read through the watcher
// goes straight to the store.
func (w *watcher) StoredObject(key client.ObjectKey, obj client.Object) (client.Object, bool, error) {
	return controller.GetStored(context.Background(), w.Client, key, obj)
}

var (
	_ client.Client            = (*watcher)(nil)
	_ client.SubResourceWriter = statusWatcher{}
	_ client.SubResourceClient = subResourceWatcher{}
	_ controller.StoredGetter  = (*watcher)(nil)
)
