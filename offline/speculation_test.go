package offline

import (
	"context"
	"sync/atomic"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
)

// TestSpeculation checks that a guess is used only for the world it read:
// with nothing written since it started, result is the guess itself; after
// a write, result reads and translates again.
func TestSpeculation(t *testing.T) {
	ctx := context.Background()
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw"), service("ns", "web")}
	for name, factory := range stores {
		t.Run(name, func(t *testing.T) {
			c, err := factory(scheme.New(), objs, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			s := newSpeculation(ctx, c, objs, nil, testOptions(), stubTranslate)
			defer s.cancel()

			s.start()
			got, err := s.result()
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || len(got.Objects) != len(objs) {
				t.Fatalf("result = %+v, want the %d objects", got, len(objs))
			}

			s.start()
			guess := <-s.pending
			s.pending <- guess // put it back for result
			route := &gwv1.HTTPRoute{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "r"}, route); err != nil {
				t.Fatal(err)
			}
			route.Labels = map[string]string{"changed": "yes"}
			if err := c.Update(ctx, route); err != nil {
				t.Fatal(err)
			}
			fresh, err := s.result()
			if err != nil {
				t.Fatal(err)
			}
			if fresh == guess.res {
				t.Error("a guess taken before a write was used after it")
			}
			if sameObjects(guess.res.Objects, fresh.Objects) {
				t.Error("the guess and the fresh read hold the same objects, though one was written in between")
			}
		})
	}
}

// TestSpeculationKeepsUnchangedGuess checks the common case: the guess is
// returned as is when the world did not change.
func TestSpeculationKeepsUnchangedGuess(t *testing.T) {
	ctx := context.Background()
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls")}
	c, err := IndexedStore(scheme.New(), objs, controller.Indexes())
	if err != nil {
		t.Fatal(err)
	}
	s := newSpeculation(ctx, c, objs, nil, testOptions(), stubTranslate)
	defer s.cancel()
	s.start()
	guess := <-s.pending
	s.pending <- guess
	got, err := s.result()
	if err != nil {
		t.Fatal(err)
	}
	if got != guess.res {
		t.Error("an unchanged world did not reuse the guess")
	}
}

// TestSpeculationCountsWrites checks the speculation of a run, which
// counts the writes made through the loop's watcher: with none since the
// guess started, the guess is used without reading the world again; after
// one, the world is read again.
func TestSpeculationCountsWrites(t *testing.T) {
	ctx := context.Background()
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw")}
	c, err := IndexedStore(scheme.New(), objs, controller.Indexes())
	if err != nil {
		t.Fatal(err)
	}
	counted := &listCounter{Client: c}
	w := newWatcher(counted, controller.Indexes())
	s := newSpeculation(ctx, counted, objs, nil, testOptions(), stubTranslate)
	s.writes = w.writeCount
	defer s.cancel()

	s.start()
	guess := <-s.pending
	s.pending <- guess
	lists := counted.lists.Load()
	got, err := s.result()
	if err != nil {
		t.Fatal(err)
	}
	if got != guess.res || counted.lists.Load() != lists {
		t.Errorf("with nothing written, result read the world again (%d Lists) or did not use the guess", counted.lists.Load()-lists)
	}

	s.start()
	guess = <-s.pending
	s.pending <- guess
	route := &gwv1.HTTPRoute{}
	if err := w.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "r"}, route); err != nil {
		t.Fatal(err)
	}
	route.Status.Parents = []gwv1.RouteParentStatus{{ControllerName: ours, ParentRef: gwv1.ParentReference{Name: "gw"}}}
	if err := w.Status().Update(ctx, route); err != nil {
		t.Fatal(err)
	}
	fresh, err := s.result()
	if err != nil {
		t.Fatal(err)
	}
	if fresh == guess.res || sameObjects(guess.res.Objects, fresh.Objects) {
		t.Error("a guess taken before a status write was used after it")
	}
}

// listCounter counts the Lists made through it.
type listCounter struct {
	client.Client
	lists atomic.Int64
}

func (c *listCounter) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.lists.Add(1)
	return c.Client.List(ctx, list, opts...)
}
