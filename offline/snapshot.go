package offline

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/translate/diag"
)

// snapshot records, per reconciled object, the content a pass may change:
// metadata.generation and the status. Stores bump resourceVersion on every
// write, even one that changes nothing, so it cannot decide a change; but
// an unchanged resourceVersion means an unchanged object, which spares
// comparing the content of the many objects a pass did not write.
type snapshot struct {
	state  map[diag.ObjectRef]client.Object
	byKind map[string][]diag.ObjectRef
}

// takeSnapshot lists each target kind once. The objects are cached reads:
// a store never changes a stored object in place, so they keep describing
// the moment of the snapshot.
func takeSnapshot(ctx context.Context, c client.Reader, ts []target) (snapshot, error) {
	s := snapshot{state: map[diag.ObjectRef]client.Object{}, byKind: map[string][]diag.ObjectRef{}}
	for _, t := range ts {
		objs, err := controller.ListObjects(ctx, c, t.newList(), controller.CachedRead)
		if err != nil {
			return snapshot{}, fmt.Errorf("listing %ss: %w", t.kind, err)
		}
		for _, o := range objs {
			ref := diag.ObjectRef{Kind: t.kind, Namespace: o.GetNamespace(), Name: o.GetName()}
			s.state[ref] = o
			s.byKind[t.kind] = append(s.byKind[t.kind], ref)
		}
		slices.SortFunc(s.byKind[t.kind], diag.ObjectRef.Compare)
	}
	return s, nil
}

// sameState reports whether two reads of one object agree on generation
// and status.
func sameState(a, b client.Object) bool {
	if a.GetResourceVersion() == b.GetResourceVersion() {
		return true
	}
	return a.GetGeneration() == b.GetGeneration() && equality.Semantic.DeepEqual(statusOf(a), statusOf(b))
}

// statusOf returns the object's Status field, or the whole object for
// types without one.
func statusOf(o client.Object) any {
	v := reflect.ValueOf(o)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("Status"); f.IsValid() {
			return f.Interface()
		}
	}
	return o
}

// refs returns the objects of kind in namespace/name order.
func (s snapshot) refs(kind string) []diag.ObjectRef { return s.byKind[kind] }

// diff returns the objects whose recorded content differs, or that exist in
// only one of the snapshots, sorted.
func (s snapshot) diff(o snapshot) []diag.ObjectRef {
	var out []diag.ObjectRef
	for ref, st := range s.state {
		if other, ok := o.state[ref]; !ok || !sameState(st, other) {
			out = append(out, ref)
		}
	}
	for ref := range o.state {
		if _, ok := s.state[ref]; !ok {
			out = append(out, ref)
		}
	}
	slices.SortFunc(out, diag.ObjectRef.Compare)
	return out
}
