package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestGenerateNameIsDeterministic(t *testing.T) {
	ctx := context.Background()
	names := func() []string {
		s := build(t, seedObjects()...)
		var out []string
		for range 3 {
			r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", GenerateName: "gen-"}}
			if err := s.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Name)
		}
		return out
	}
	first, second := names(), names()
	if d := cmp.Diff(first, second); d != "" {
		t.Errorf("generated names differ between runs (-first +second):\n%s", d)
	}
	seen := map[string]bool{}
	for _, n := range first {
		if seen[n] || len(n) != len("gen-")+5 {
			t.Errorf("generated name %q is repeated or not base+5 characters", n)
		}
		seen[n] = true
	}
}

// DeleteAllOf honours field selectors, where the fake client ignores them.
func TestDeleteAllOfByField(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	err := s.DeleteAllOf(ctx, &gwv1.HTTPRoute{}, client.MatchingFields{hostnameField: "a.example.com"}, client.InNamespace("apps"))
	if err != nil {
		t.Fatal(err)
	}
	list := &gwv1.HTTPRouteList{}
	if err := s.List(ctx, list); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list.Items {
		got = append(got, r.Namespace+"/"+r.Name)
	}
	want := []string{"apps/r3", "apps-b/r4", "infra/r-status", "infra/r1", "infra/r2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("routes left (-want +got):\n%s", d)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r1"}
	before := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, before); err != nil {
		t.Fatal(err)
	}
	r := before.DeepCopy()
	r.Spec.Hostnames = nil
	r.Status.RouteStatus = acceptedStatus("gw")
	for name, write := range map[string]func() error{
		"update":        func() error { return s.Update(ctx, r.DeepCopy(), client.DryRunAll) },
		"status update": func() error { return s.Status().Update(ctx, r.DeepCopy(), client.DryRunAll) },
		"patch":         func() error { return s.Patch(ctx, r.DeepCopy(), client.MergeFrom(before), client.DryRunAll) },
		"delete":        func() error { return s.Delete(ctx, r.DeepCopy(), client.DryRunAll) },
		"delete all of": func() error { return s.DeleteAllOf(ctx, &gwv1.HTTPRoute{}, client.DryRunAll) },
	} {
		if err := write(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	after := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, after); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("dry runs changed the object (-before +after):\n%s", d)
	}
}

func TestDeleteUIDPrecondition(t *testing.T) {
	ctx := context.Background()
	r := route("infra", "r", nil, nil)
	r.UID = "uid-1"
	s := build(t, r)
	err := s.Delete(ctx, r.DeepCopy(), client.Preconditions{UID: new(types.UID("uid-2"))})
	if !apierrors.IsConflict(err) {
		t.Errorf("Delete with a stale UID: error = %v, want Conflict", err)
	}
	if err := s.Delete(ctx, r.DeepCopy(), client.Preconditions{UID: new(types.UID("uid-1"))}); err != nil {
		t.Errorf("Delete with the right UID: %v", err)
	}
}

// Concurrent writers that retry on Conflict must not lose updates, and
// concurrent readers must always see whole objects.
func TestConcurrentUpdates(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r1"}
	const writers, perWriter = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				if err := addAnnotationWithRetry(ctx, s, key, fmt.Sprintf("w%d-%d", w, i)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range writers * perWriter {
			list := &gwv1.HTTPRouteList{}
			if err := s.List(ctx, list, client.MatchingFields{parentGatewayField: "infra/gw"}); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Annotations) != writers*perWriter {
		t.Errorf("annotations = %d, want %d: updates were lost", len(got.Annotations), writers*perWriter)
	}
}

func addAnnotationWithRetry(ctx context.Context, c client.Client, key client.ObjectKey, name string) error {
	for {
		r := &gwv1.HTTPRoute{}
		if err := c.Get(ctx, key, r); err != nil {
			return err
		}
		if r.Annotations == nil {
			r.Annotations = map[string]string{}
		}
		r.Annotations[name] = "x"
		err := c.Update(ctx, r)
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}
