package store

import (
	"context"
	"maps"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestStatusWriteOfCachedRead checks the status write of an object read
// without a deep copy, which skips copying the spec back: the caller gets
// the stored object, and what it changes afterwards (status, labels) does
// not reach the store.
func TestStatusWriteOfCachedRead(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"r1", "r-status"} {
		s := build(t, seedObjects()...)
		key := client.ObjectKey{Namespace: "infra", Name: name}
		got := &gwv1.HTTPRoute{}
		if err := s.Get(ctx, key, got, client.UnsafeDisableDeepCopy); err != nil {
			t.Fatal(err)
		}
		got.Status.RouteStatus = acceptedStatus("gw")
		if err := s.Status().Update(ctx, got); err != nil {
			t.Fatal(err)
		}
		stored := &gwv1.HTTPRoute{}
		if err := s.Get(ctx, key, stored); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(stored, got); d != "" {
			t.Errorf("%s: written-back object differs from the stored one (-stored +got):\n%s", name, d)
		}
		got.Status.Parents[0].ControllerName = "changed.example/controller"
		got.Labels = map[string]string{"changed": "yes"}
		if len(got.Spec.Hostnames) > 0 {
			got.Spec.Hostnames = append(got.Spec.Hostnames[:0:0], "changed.example.com")
		}
		again := &gwv1.HTTPRoute{}
		if err := s.Get(ctx, key, again); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(stored, again); d != "" {
			t.Errorf("%s: changing the written-back object changed the store (-before +after):\n%s", name, d)
		}
	}
}

// TestStatusWriteOfOwnLabels checks that the metadata written back to an
// object whose labels the caller made its own is the caller's own again:
// changing the labels in place afterwards does not reach the store.
func TestStatusWriteOfOwnLabels(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r1"}
	got := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, got, client.UnsafeDisableDeepCopy); err != nil {
		t.Fatal(err)
	}
	got.Labels = maps.Clone(got.Labels)
	got.Status.RouteStatus = acceptedStatus("gw")
	if err := s.Status().Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	got.Labels["team"] = "changed"
	stored := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, stored); err != nil {
		t.Fatal(err)
	}
	if stored.Labels["team"] != "a" {
		t.Errorf("changing the labels of the written-back object changed the store's: %v", stored.Labels)
	}
}

// TestShallowSame checks the identity test that decides whether a status
// write copies the spec back.
func TestShallowSame(t *testing.T) {
	a := route("ns", "r", map[string]string{"k": "v"}, []string{"gw"}, "a.example.com")
	shallow := *a
	deep := a.DeepCopy()
	for _, tc := range []struct {
		name string
		b    *gwv1.HTTPRoute
		want bool
	}{
		{"struct copy shares everything", &shallow, true},
		{"deep copy shares nothing", deep, false},
	} {
		if got := shallowSame(reflect.ValueOf(a.Spec), reflect.ValueOf(tc.b.Spec)); got != tc.want {
			t.Errorf("%s: shallowSame = %v, want %v", tc.name, got, tc.want)
		}
	}
	changed := *a
	changed.Spec.Hostnames = append([]gwv1.Hostname(nil), a.Spec.Hostnames...)
	if shallowSame(reflect.ValueOf(a.Spec), reflect.ValueOf(changed.Spec)) {
		t.Error("a spec with a slice of its own is shallowly the same")
	}
}
