package offline

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
)

func listenerSet(ns, name, gateway string, created int64, hostname string) *gwv1.ListenerSet {
	gwNS := gwv1.Namespace("infra")
	h := gwv1.Hostname(hostname)
	return defaulttest.Must(&gwv1.ListenerSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.NewTime(time.Unix(created, 0))},
		Spec: gwv1.ListenerSetSpec{
			ParentRef: gwv1.ParentGatewayReference{Name: gwv1.ObjectName(gateway), Namespace: &gwNS},
			// "http" is also the Gateway's listener name: ListenerSets may reuse it.
			Listeners: []gwv1.ListenerEntry{{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType, Hostname: &h}},
		},
	})
}

// TestRunWithListenerSets runs the real Translate over a Gateway with two
// ListenerSets (the younger one conflicted), one ListenerSet that its
// Gateway does not allow, and a route attached to a ListenerSet and to the
// Gateway: the ListenerSet statuses the Gateway reconciler wrote, and the
// route's parents, are what Translate computes over the whole world, and
// the world settles.
func TestRunWithListenerSets(t *testing.T) {
	opts := testOptions()
	gw := gateway("infra", "gw", "cls")
	all := gwv1.NamespacesFromAll
	gw.Spec.AllowedListeners = &gwv1.AllowedListeners{Namespaces: &gwv1.ListenerNamespaces{From: &all}}
	route := httpRoute("apps", "r", "gw")
	lsKind, infra := gwv1.Kind("ListenerSet"), gwv1.Namespace("infra")
	route.Spec.ParentRefs = []gwv1.ParentReference{{Kind: &lsKind, Name: "ls"}, {Namespace: &infra, Name: "gw"}}
	objs := []client.Object{
		gatewayClass("cls", ours), gw, gateway("infra", "closed", "cls"),
		listenerSet("apps", "ls", "gw", 10, "apps.example.com"),
		listenerSet("apps", "late", "gw", 20, "apps.example.com"),
		listenerSet("apps", "refused", "closed", 10, "apps.example.com"),
		route, service("apps", "web"), namespace("apps"), namespace("infra"),
	}
	defaulttest.All(t, objs...) // the parentRefs and allowedListeners set above
	want := map[string]string{"apps/ls": "Accepted", "apps/late": "ListenersNotValid", "apps/refused": "NotAllowed"}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts.Store = factory
			res, err := Run(context.Background(), objs, diag.Sources{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			c, err := factory(scheme.New(), res.Objects, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			if passes, err := Reconcile(context.Background(), c, nil, opts); err != nil || passes != 1 {
				t.Errorf("Reconcile on the settled world: %d passes, %v; want 1 pass", passes, err)
			}
			for _, o := range res.Objects {
				key := types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
				switch o := o.(type) {
				case *gwv1.ListenerSet:
					if got := o.Status.Conditions; len(got) == 0 || got[0].Reason != want[key.String()] {
						t.Errorf("ListenerSet %s conditions = %+v, want Accepted reason %s", key, got, want[key.String()])
					}
					if diff := cmp.Diff(res.Output.Status.ListenerSets[key], o.Status); diff != "" {
						t.Errorf("stored ListenerSet %s status differs from whole-world Translate (-translate +stored):\n%s", key, diff)
					}
				case *gwv1.Gateway:
					if diff := cmp.Diff(res.Output.Status.Gateways[key], o.Status); diff != "" {
						t.Errorf("stored Gateway %s status differs from whole-world Translate (-translate +stored):\n%s", key, diff)
					}
				case *gwv1.HTTPRoute:
					if len(o.Status.Parents) != 2 {
						t.Fatalf("route parents = %+v, want the ListenerSet's and the Gateway's", o.Status.Parents)
					}
					want := res.Output.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: "apps", Name: "r"}]
					if diff := cmp.Diff(want, o.Status.Parents); diff != "" {
						t.Errorf("stored route parents differ from whole-world Translate (-translate +stored):\n%s", diff)
					}
				}
			}
		})
	}
}
