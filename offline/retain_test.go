package offline

import (
	"context"
	"runtime"
	"testing"
	"weak"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// TestRunLetsInputGo checks Run's promise to keep no reference to the
// objects it is given once the store is built: a caller that drops them
// does not pay for their top levels next to the store's copies through the
// run (and, from IndexedStore, Result holds the stored objects themselves,
// not a third copy). Objects of a kind Result lists beyond translate.Input
// (a ServiceAccount here) count too.
func TestRunLetsInputGo(t *testing.T) {
	var inputs []weak.Pointer[gwv1.HTTPRoute]
	var others []weak.Pointer[corev1.ServiceAccount]
	res := func() *Result {
		objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), service("ns", "web"), namespace("ns")}
		for _, name := range []string{"a", "b"} {
			r := httpRoute("ns", name, "gw")
			inputs = append(inputs, weak.Make(r))
			objs = append(objs, r)
		}
		sa := &corev1.ServiceAccount{}
		sa.Namespace, sa.Name = "ns", "sa"
		others = append(others, weak.Make(sa))
		objs = append(objs, sa)
		opts := testOptions()
		opts.Stage = func(name string) {
			if name == "reconcile" {
				checkGone(t, "after the fixpoint", inputs, others)
			}
		}
		res, err := run(context.Background(), objs, nil, opts, stubTranslate)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}()
	checkGone(t, "after Run returned", inputs, others)
	found := 0
	for _, o := range res.Objects {
		switch o.(type) {
		case *gwv1.HTTPRoute, *corev1.ServiceAccount:
			found++
		}
	}
	if found != 3 {
		t.Errorf("Result holds %d of the 2 routes and 1 ServiceAccount", found)
	}
	runtime.KeepAlive(res)
}

// checkGone collects garbage and reports the input objects still reachable.
func checkGone(t *testing.T, when string, routes []weak.Pointer[gwv1.HTTPRoute], others []weak.Pointer[corev1.ServiceAccount]) {
	t.Helper()
	runtime.GC()
	for i, p := range routes {
		if p.Value() != nil {
			t.Errorf("input route %d is still reachable %s", i, when)
		}
	}
	for _, p := range others {
		if p.Value() != nil {
			t.Errorf("the input ServiceAccount is still reachable %s", when)
		}
	}
}

// TestReconcileKeepsStoredBackends checks that the reconcilers' read memo,
// which keeps every backend it reads for the whole loop, keeps the store's
// objects themselves rather than a copy of each (store.Store.StoredObject):
// the Services handed to Translate are the stored ones.
func TestReconcileKeepsStoredBackends(t *testing.T) {
	r := httpRoute("ns", "a", "gw")
	kind := gwv1.Kind("Service")
	r.Spec.Rules[0].BackendRefs[0].Kind = &kind
	objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "gw", "cls"), service("ns", "web"), namespace("ns"), r}
	c, err := IndexedStore(scheme.New(), objs, controller.Indexes())
	if err != nil {
		t.Fatal(err)
	}
	var handed []*corev1.Service
	tf := func(in translate.Input, opts translate.Options) translate.Output {
		handed = append(handed, in.Services...)
		return stubTranslate(in, opts)
	}
	if _, err := reconcileThrough(context.Background(), newWatcher(c, controller.Indexes()), nil, testOptions(), tf); err != nil {
		t.Fatal(err)
	}
	stored, _, err := c.(controller.StoredGetter).StoredObject(client.ObjectKey{Namespace: "ns", Name: "web"}, &corev1.Service{})
	if err != nil {
		t.Fatal(err)
	}
	if len(handed) == 0 {
		t.Fatal("Translate was handed no Service")
	}
	for i, s := range handed {
		if s != stored {
			t.Errorf("Translate %d was handed a copy of Service ns/web, not the stored object", i+1)
		}
	}
}
