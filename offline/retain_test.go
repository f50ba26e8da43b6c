package offline

import (
	"context"
	"runtime"
	"testing"
	"weak"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
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
