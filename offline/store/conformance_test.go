package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// step is one client call in a conformance case. It returns what the caller
// observes afterwards (the object or list it passed in) and the call's error.
// Steps build their own objects so that each client gets fresh ones.
type step struct {
	name string
	do   func(ctx context.Context, c client.Client) (any, error)
}

// conformanceCase is a sequence of steps run in order against both the fake
// client and the store, each built from seedObjects.
type conformanceCase struct {
	name  string
	steps []step
	// specChanges marks cases that change a spec: the fake client never
	// bumps metadata.generation, so generation is not compared there (see
	// TestGeneration for the store's own rule).
	specChanges bool
}

// outcome is what is compared per step. Errors compare by API reason and
// message; resourceVersions compare exactly, since both use one counter
// (the fake built WithGlobalResourceVersionCounter). The caller's object
// after a failed write is not compared: the fake client leaves it half
// rewritten (a status update that conflicts has already copied the stored
// spec and managedFields into it), which no caller can rely on.
type outcome struct {
	Value  any
	Reason metav1.StatusReason
	Err    string
}

func TestConformanceWithFakeClient(t *testing.T) {
	for _, tc := range conformanceCases() {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			want := runSteps(ctx, newFake(t), tc.steps)
			got := runSteps(ctx, newStore(t), tc.steps)
			// The fake client leaves creationTimestamp as the caller sent
			// it; the store sets it on Create as the apiserver does (see
			// TestCreationTimestamp).
			opts := []cmp.Option{cmpopts.IgnoreFields(metav1.ObjectMeta{}, "CreationTimestamp")}
			if tc.specChanges {
				opts = append(opts, cmpopts.IgnoreFields(metav1.ObjectMeta{}, "Generation"))
			}
			for i, s := range tc.steps {
				if d := cmp.Diff(want[i], got[i], opts...); d != "" {
					t.Errorf("step %d %q: store differs from fake client (-fake +store):\n%s", i, s.name, d)
				}
			}
		})
	}
}

func runSteps(ctx context.Context, c client.Client, steps []step) []outcome {
	out := make([]outcome, len(steps))
	for i, s := range steps {
		v, err := s.do(ctx, c)
		out[i] = outcome{Value: v}
		if err != nil {
			out[i].Value = nil
			out[i].Reason = apierrors.ReasonForError(err)
			out[i].Err = err.Error()
		}
	}
	return out
}

func newFake(t *testing.T) client.Client {
	t.Helper()
	s := newTestScheme()
	b := fake.NewClientBuilder().WithScheme(s).WithGlobalResourceVersionCounter().
		WithObjects(seedObjects()...).WithStatusSubresource(gatewayAPIKinds(s)...)
	for _, ix := range testIndexes() {
		b = b.WithIndex(ix.obj, ix.field, ix.fn)
	}
	return b.Build()
}

func newStore(t *testing.T) client.Client {
	t.Helper()
	b := NewBuilder(newTestScheme()).WithObjects(seedObjects()...)
	for _, ix := range testIndexes() {
		if ix.specOnly {
			b = b.WithSpecIndex(ix.obj, ix.field, ix.fn)
		} else {
			b = b.WithIndex(ix.obj, ix.field, ix.fn)
		}
	}
	s, err := b.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

// The step constructors below keep the case table readable.

func getStep[T any, PT interface {
	*T
	client.Object
}](ns, name string) step {
	return step{name: fmt.Sprintf("get %T %s/%s", PT(nil), ns, name), do: func(ctx context.Context, c client.Client) (any, error) {
		obj := PT(new(T))
		err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj)
		return obj, err
	}}
}

func listStep[T any, PT interface {
	*T
	client.ObjectList
}](name string, opts ...client.ListOption) step {
	return step{name: "list " + name, do: func(ctx context.Context, c client.Client) (any, error) {
		list := PT(new(T))
		err := c.List(ctx, list, opts...)
		return list, err
	}}
}

// writeStep runs write on a fresh object built by mk.
func writeStep[O client.Object](name string, mk func() O, write func(context.Context, client.Client, O) error) step {
	return step{name: name, do: func(ctx context.Context, c client.Client) (any, error) {
		obj := mk()
		err := write(ctx, c, obj)
		return obj, err
	}}
}

// getThen reads the named object and then runs write on it, which is how
// reconcilers write: read, modify, write back.
func getThen[T any, PT interface {
	*T
	client.Object
}](name, ns, objName string, write func(context.Context, client.Client, PT) error) step {
	return step{name: name, do: func(ctx context.Context, c client.Client) (any, error) {
		obj := PT(new(T))
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: objName}, obj); err != nil {
			return nil, err
		}
		err := write(ctx, c, obj)
		return obj, err
	}}
}
