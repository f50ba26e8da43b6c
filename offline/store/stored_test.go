package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestStoredObjects checks that StoredObjects gives what List gives, in
// the same order, without copying, and that what it gave stays as it was
// when a write replaces the stored object.
func TestStoredObjects(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	var list gwv1.HTTPRouteList
	if err := s.List(ctx, &list); err != nil {
		t.Fatal(err)
	}
	got, err := s.StoredObjects(&gwv1.HTTPRouteList{})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]client.Object, len(list.Items))
	for i := range list.Items {
		want[i] = &list.Items[i]
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("StoredObjects differs from List (-List +StoredObjects):\n%s", d)
	}
	k, err := s.kindOf(&gwv1.HTTPRoute{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range got {
		stored, _ := k.get(o.GetNamespace(), o.GetName())
		if o != stored {
			t.Errorf("%s/%s: StoredObjects returned a copy, not the stored object", o.GetNamespace(), o.GetName())
		}
	}

	before := got[0].DeepCopyObject()
	written := got[0].DeepCopyObject().(*gwv1.HTTPRoute)
	written.Status.RouteStatus = acceptedStatus("gw")
	if err := s.Status().Update(ctx, written); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, got[0]); d != "" {
		t.Errorf("a write changed an object StoredObjects returned (-before +after):\n%s", d)
	}
	again, err := s.StoredObjects(&gwv1.HTTPRouteList{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(written, again[0]); d != "" {
		t.Errorf("after the write StoredObjects returned (-written +returned):\n%s", d)
	}
}

func TestStoredObjectsUnknownKind(t *testing.T) {
	s := build(t)
	if _, err := s.StoredObjects(&gwv1.GatewayClassList{}); err != nil {
		t.Errorf("an empty stored kind: %v", err)
	}
	if _, err := s.StoredObjects(nil); err == nil {
		t.Error("a nil list: no error")
	}
}

func TestStoredObject(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	all, err := s.StoredObjects(&gwv1.HTTPRouteList{})
	if err != nil || len(all) == 0 {
		t.Fatalf("no stored routes to read (%v)", err)
	}
	key := client.ObjectKeyFromObject(all[0])
	var viaGet gwv1.HTTPRoute
	if err := s.Get(ctx, key, &viaGet); err != nil {
		t.Fatal(err)
	}
	got, found, err := s.StoredObject(key, &gwv1.HTTPRoute{})
	if err != nil || !found {
		t.Fatalf("StoredObject(%s) = found %v, %v", key, found, err)
	}
	if got != all[0] {
		t.Errorf("StoredObject(%s) returned a copy, not the stored object", key)
	}
	if d := cmp.Diff(&viaGet, got); d != "" {
		t.Errorf("StoredObject differs from Get (-Get +StoredObject):\n%s", d)
	}
	if _, found, err := s.StoredObject(client.ObjectKey{Namespace: key.Namespace, Name: "absent"}, &gwv1.HTTPRoute{}); found || err != nil {
		t.Errorf("an absent object: found %v, %v", found, err)
	}
	if _, _, err := s.StoredObject(key, nil); err == nil {
		t.Error("a nil object: no error")
	}
}
