package offline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
)

var stores = map[string]StoreFactory{"indexed": IndexedStore, "fake": FakeStore}

func TestReconcilePasses(t *testing.T) {
	for _, tc := range []struct {
		name       string
		objs       []client.Object
		wantPasses int
	}{
		{"empty world settles at once", nil, 1},
		{"class of another controller: nothing to write", []client.Object{gatewayClass("cls", theirs), gateway("ns", "gw", "cls")}, 1},
		{"class, Gateway and route: one pass writes, one confirms", []client.Object{
			gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw"), service("ns", "web"), namespace("ns"),
		}, 2},
	} {
		for storeName, factory := range stores {
			t.Run(tc.name+"/"+storeName, func(t *testing.T) {
				ctx := context.Background()
				c, err := factory(scheme.New(), tc.objs, controller.Indexes())
				if err != nil {
					t.Fatal(err)
				}
				passes, err := reconcileWith(ctx, c, nil, testOptions(), stubTranslate)
				if err != nil {
					t.Fatal(err)
				}
				if passes != tc.wantPasses {
					t.Errorf("first reconcile: %d passes, want %d", passes, tc.wantPasses)
				}
				settled, _, err := readBack(ctx, c, tc.objs)
				if err != nil {
					t.Fatal(err)
				}
				passes, err = reconcileWith(ctx, c, nil, testOptions(), stubTranslate)
				if err != nil {
					t.Fatal(err)
				}
				if passes != 1 {
					t.Errorf("reconcile on a settled store: %d passes, want 1", passes)
				}
				again, _, err := readBack(ctx, c, tc.objs)
				if err != nil {
					t.Fatal(err)
				}
				// resourceVersion included: a settled store is not written at all.
				if diff := cmp.Diff(settled, again); diff != "" {
					t.Errorf("reconcile on a settled store changed objects (-before +after):\n%s", diff)
				}
			})
		}
	}
}

func TestRunWritesStatus(t *testing.T) {
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw"), service("ns", "web")}
	res, err := run(context.Background(), objs, nil, testOptions(), stubTranslate)
	if err != nil {
		t.Fatal(err)
	}
	var route *gwv1.HTTPRoute
	var gw *gwv1.Gateway
	for _, o := range res.Objects {
		switch o := o.(type) {
		case *gwv1.HTTPRoute:
			route = o
		case *gwv1.Gateway:
			gw = o
		}
	}
	if route == nil || len(route.Status.Parents) != 1 || route.Status.Parents[0].ControllerName != ours {
		t.Errorf("route status = %+v, want one parent of %s", route, ours)
	}
	if gw == nil || len(gw.Status.Conditions) != 1 || gw.Status.Conditions[0].Message != "1 routes" {
		t.Errorf("gateway status = %+v, want Accepted with %q", gw, "1 routes")
	}
	if got := len(res.Output.Status.Gateways); got != 1 {
		t.Errorf("Output has %d Gateway statuses, want 1 (Translate over the whole world)", got)
	}
	if res.Passes != 2 {
		t.Errorf("Passes = %d, want 2", res.Passes)
	}
}

func TestRunSortsObjectsAndKeepsInput(t *testing.T) {
	objs := []client.Object{
		service("b", "z"), httpRoute("b", "r", "gw"), gateway("a", "gw", "cls"), service("a", "y"),
		gatewayClass("cls", ours), namespace("b"), namespace("a"),
	}
	orig := make([]client.Object, len(objs))
	for i, o := range objs {
		orig[i] = o.DeepCopyObject().(client.Object)
	}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts := testOptions()
			opts.Store = factory
			res, err := run(context.Background(), objs, nil, opts, stubTranslate)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range res.Objects {
				gvk, _, _ := scheme.New().ObjectKinds(o)
				got = append(got, diag.ObjectRef{Kind: gvk[0].Kind, Namespace: o.GetNamespace(), Name: o.GetName()}.String())
			}
			want := []string{"Gateway a/gw", "GatewayClass cls", "HTTPRoute b/r", "Namespace a", "Namespace b", "Service a/y", "Service b/z"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(orig, objs); diff != "" {
				t.Errorf("Run modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

func TestStoresAgree(t *testing.T) {
	objs := []client.Object{
		gatewayClass("cls", ours), gatewayClass("other", theirs),
		gateway("ns", "gw", "cls"), gateway("ns", "gw2", "cls"), gateway("ns", "theirs", "other"),
		httpRoute("ns", "r", "gw", "gw2", "theirs"), httpRoute("ns", "s", "gw2"), service("ns", "web"), namespace("ns"),
	}
	results := map[string]*Result{}
	for storeName, factory := range stores {
		opts := testOptions()
		opts.Store = factory
		res, err := run(context.Background(), objs, nil, opts, stubTranslate)
		if err != nil {
			t.Fatalf("%s: %v", storeName, err)
		}
		results[storeName] = res
	}
	// Stores number resourceVersions their own way and only the fake client
	// fills in TypeMeta on reads; everything else must agree.
	ignore := cmp.Options{
		cmpopts.IgnoreFields(metav1.ObjectMeta{}, "ResourceVersion"),
		cmpopts.IgnoreTypes(metav1.TypeMeta{}),
	}
	if diff := cmp.Diff(results["fake"].Objects, results["indexed"].Objects, ignore); diff != "" {
		t.Errorf("objects differ (-fake +indexed):\n%s", diff)
	}
	if diff := cmp.Diff(results["fake"].Output, results["indexed"].Output); diff != "" {
		t.Errorf("output differs (-fake +indexed):\n%s", diff)
	}
	if results["fake"].Passes != results["indexed"].Passes {
		t.Errorf("passes: fake %d, indexed %d", results["fake"].Passes, results["indexed"].Passes)
	}
}

// flipper flips the status of the peer of the class it reconciles (ping
// and pong are each other's peers) on every reconcile, so the loop can
// never settle: each write requeues the peer, whose reconcile writes back.
// It reports nothing, so only the snapshots show the change. A class that
// flips its own status would settle: a reconcile's own writes requeue
// nothing (see watcher).
type flipper struct{ c client.Client }

func (f flipper) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	peer := map[string]string{"ping": "pong", "pong": "ping"}[req.Name]
	class := &gwv1.GatewayClass{}
	if err := f.c.Get(ctx, client.ObjectKey{Name: peer}, class); err != nil || peer == "" {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	st := metav1.ConditionTrue
	if len(class.Status.Conditions) > 0 && class.Status.Conditions[0].Status == metav1.ConditionTrue {
		st = metav1.ConditionFalse
	}
	class.Status.Conditions = []metav1.Condition{{Type: "Accepted", Status: st, Reason: "Flip", LastTransitionTime: now}}
	return reconcile.Result{}, f.c.Status().Update(ctx, class)
}

func TestFixpointCapNamesObjectsThatDidNotSettle(t *testing.T) {
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			c, err := factory(scheme.New(), []client.Object{gatewayClass("calm", ours), gatewayClass("ping", ours), gatewayClass("pong", ours)}, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			w := newWatcher(c, controller.Indexes())
			ts := []target{{kind: "GatewayClass", newList: func() client.ObjectList { return &gwv1.GatewayClassList{} }, r: flipper{w}}}
			passes, err := fixpoint(context.Background(), w, ts, 3, 1, nil)
			var ns *NotSettledError
			if !errors.As(err, &ns) {
				t.Fatalf("err = %v, want *NotSettledError", err)
			}
			// Pass 1: ping writes pong (still to run), pong writes ping
			// (done: requeued). Pass 2: ping writes pong. Pass 3: pong
			// writes ping.
			want := &NotSettledError{Passes: 3, Changed: []diag.ObjectRef{{Kind: "GatewayClass", Name: "ping"}}}
			if diff := cmp.Diff(want, ns); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if passes != 3 || !strings.Contains(err.Error(), "GatewayClass ping") || strings.Contains(err.Error(), "calm") {
				t.Errorf("passes = %d, err = %q", passes, err)
			}
		})
	}
}

func TestMaxPassesDefault(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, 10}, {-1, 10}, {3, 3}} {
		if got := (Options{MaxPasses: tc.in}).maxPasses(); got != tc.want {
			t.Errorf("MaxPasses %d: got %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestStoresRejectDuplicates(t *testing.T) {
	objs := []client.Object{service("ns", "web"), service("ns", "web")}
	for storeName, factory := range stores {
		if _, err := factory(scheme.New(), objs, controller.Indexes()); err == nil {
			t.Errorf("%s: no error for duplicate objects", storeName)
		}
	}
}

func TestRouteReconcilerCleansUpAfterDeletedGateway(t *testing.T) {
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			ctx := context.Background()
			c, err := factory(scheme.New(), []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), httpRoute("ns", "r", "gw")}, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := reconcileWith(ctx, c, nil, testOptions(), stubTranslate); err != nil {
				t.Fatal(err)
			}
			if err := c.Delete(ctx, &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}}); err != nil {
				t.Fatal(err)
			}
			passes, err := reconcileWith(ctx, c, nil, testOptions(), stubTranslate)
			if err != nil {
				t.Fatal(err)
			}
			route := &gwv1.HTTPRoute{}
			if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "r"}, route); err != nil {
				t.Fatal(err)
			}
			if len(route.Status.Parents) != 0 || passes != 2 {
				t.Errorf("after deleting the Gateway: %d passes, parents %+v; want 2 passes, no parents", passes, route.Status.Parents)
			}
		})
	}
}
