package offline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
)

// snapshot records, per reconciled object, the content a pass may change:
// metadata.generation and the status. Stores bump resourceVersion on every
// write, even one that changes nothing, so it cannot decide a change; but
// an unchanged resourceVersion means an unchanged object, which spares
// comparing the content of the many objects a pass did not write.
type snapshot struct {
	// objs are the objects of each kind, in namespace/name order; byKind
	// their refs, in the same order.
	objs   map[string][]client.Object
	byKind map[string][]diag.ObjectRef
}

// takeSnapshot lists each target kind once. The objects are cached reads:
// a store never changes a stored object in place, so they keep describing
// the moment of the snapshot.
func takeSnapshot(ctx context.Context, c client.Reader, ts []target) (snapshot, error) {
	s := snapshot{objs: map[string][]client.Object{}, byKind: map[string][]diag.ObjectRef{}}
	for _, t := range ts {
		objs, err := controller.ListObjects(ctx, c, t.newList(), controller.CachedRead)
		if err != nil {
			return snapshot{}, fmt.Errorf("listing %ss: %w", t.kind, err)
		}
		if len(objs) == 0 {
			continue
		}
		if !slices.IsSortedFunc(objs, compareKeys) {
			slices.SortFunc(objs, compareKeys)
		}
		refs := make([]diag.ObjectRef, len(objs))
		for i, o := range objs {
			refs[i] = diag.ObjectRef{Kind: t.kind, Namespace: o.GetNamespace(), Name: o.GetName()}
		}
		s.objs[t.kind], s.byKind[t.kind] = objs, refs
	}
	return s, nil
}

// compareKeys orders objects by namespace, then name.
func compareKeys(a, b client.Object) int {
	return cmp.Or(cmp.Compare(a.GetNamespace(), b.GetNamespace()), cmp.Compare(a.GetName(), b.GetName()))
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

// diff returns the objects whose recorded content differs, or that exist in
// only one of the snapshots, sorted.
func (s snapshot) diff(o snapshot) []diag.ObjectRef {
	var out []diag.ObjectRef
	s.compare(o, func(r diag.ObjectRef) bool {
		out = append(out, r)
		return true
	})
	return out
}

// differs reports whether diff would return anything. It stops at the
// first difference: after a pass that wrote, most objects differ, and only
// the loop's last pass needs to name them.
func (s snapshot) differs(o snapshot) bool {
	found := false
	s.compare(o, func(diag.ObjectRef) bool {
		found = true
		return false
	})
	return found
}

// compare calls visit with each object that differs between s and o, in
// kind, namespace and name order, until visit returns false. Each kind's
// two listings are walked side by side in namespace/name order.
func (s snapshot) compare(o snapshot, visit func(diag.ObjectRef) bool) {
	kinds := slices.Sorted(maps.Keys(s.objs))
	for k := range o.objs {
		if _, ok := s.objs[k]; !ok {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		a, b := s.objs[kind], o.objs[kind]
		ref := func(obj client.Object) diag.ObjectRef {
			return diag.ObjectRef{Kind: kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}
		}
		for i, j := 0, 0; i < len(a) || j < len(b); {
			var changed client.Object
			switch {
			case j == len(b) || (i < len(a) && compareKeys(a[i], b[j]) < 0):
				changed = a[i]
				i++
			case i == len(a) || compareKeys(a[i], b[j]) > 0:
				changed = b[j]
				j++
			default:
				if !sameState(a[i], b[j]) {
					changed = a[i]
				}
				i++
				j++
			}
			if changed != nil && !visit(ref(changed)) {
				return
			}
		}
	}
}
