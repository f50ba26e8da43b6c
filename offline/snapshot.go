package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/translate/diag"
)

// snapshot records, per reconciled object, the content a pass may change:
// metadata.generation and the status, as JSON. resourceVersion is left out
// on purpose: stores bump it on every write, even one that changes nothing.
type snapshot struct {
	state  map[diag.ObjectRef]string
	byKind map[string][]diag.ObjectRef
}

// takeSnapshot lists each target kind once.
func takeSnapshot(ctx context.Context, c client.Reader, ts []target) (snapshot, error) {
	s := snapshot{state: map[diag.ObjectRef]string{}, byKind: map[string][]diag.ObjectRef{}}
	for _, t := range ts {
		objs, err := controller.ListObjects(ctx, c, t.newList())
		if err != nil {
			return snapshot{}, fmt.Errorf("listing %ss: %w", t.kind, err)
		}
		for _, o := range objs {
			ref := diag.ObjectRef{Kind: t.kind, Namespace: o.GetNamespace(), Name: o.GetName()}
			st, err := statusJSON(o)
			if err != nil {
				return snapshot{}, fmt.Errorf("%s: %w", ref, err)
			}
			s.state[ref] = fmt.Sprintf("generation=%d status=%s", o.GetGeneration(), st)
			s.byKind[t.kind] = append(s.byKind[t.kind], ref)
		}
		slices.SortFunc(s.byKind[t.kind], diag.ObjectRef.Compare)
	}
	return s, nil
}

// statusJSON renders the object's Status field, or the whole object for
// types without one.
func statusJSON(o client.Object) ([]byte, error) {
	v := reflect.ValueOf(o)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("Status"); f.IsValid() {
			return json.Marshal(f.Interface())
		}
	}
	return json.Marshal(o)
}

// refs returns the objects of kind in namespace/name order.
func (s snapshot) refs(kind string) []diag.ObjectRef { return s.byKind[kind] }

// diff returns the objects whose recorded content differs, or that exist in
// only one of the snapshots, sorted.
func (s snapshot) diff(o snapshot) []diag.ObjectRef {
	var out []diag.ObjectRef
	for ref, st := range s.state {
		if other, ok := o.state[ref]; !ok || other != st {
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
