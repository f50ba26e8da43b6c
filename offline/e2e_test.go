package offline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
)

// TestRunWithTranslate runs the real Translate: a Gateway and an HTTPRoute
// attached to it are Accepted, the status the reconcilers wrote is the
// status Translate computes over the whole world, and the world settles.
func TestRunWithTranslate(t *testing.T) {
	opts := testOptions()
	objs := []client.Object{gatewayClass("cls", ours), gateway("default", "gw", "cls"), httpRoute("default", "r", "gw"), service("default", "web"), namespace("default")}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts.Store = factory
			res, err := Run(context.Background(), objs, diag.Sources{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passes != 2 {
				t.Errorf("Passes = %d, want 2", res.Passes)
			}
			c, err := factory(scheme.New(), res.Objects, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			if passes, err := Reconcile(context.Background(), c, nil, opts); err != nil || passes != 1 {
				t.Errorf("Reconcile on the settled world: %d passes, %v; want 1 pass", passes, err)
			}
			for _, o := range res.Objects {
				switch o := o.(type) {
				case *gwv1.GatewayClass:
					checkAccepted(t, "GatewayClass", o.Status.Conditions)
				case *gwv1.Gateway:
					checkAccepted(t, "Gateway", o.Status.Conditions)
					if len(o.Status.Listeners) != 1 || o.Status.Listeners[0].AttachedRoutes != 1 {
						t.Errorf("Gateway listeners = %+v, want one with 1 attached route", o.Status.Listeners)
					}
					want := res.Output.Status.Gateways[types.NamespacedName{Namespace: "default", Name: "gw"}]
					if diff := cmp.Diff(want, o.Status); diff != "" {
						t.Errorf("stored Gateway status differs from whole-world Translate (-translate +stored):\n%s", diff)
					}
				case *gwv1.HTTPRoute:
					if len(o.Status.Parents) != 1 || o.Status.Parents[0].ControllerName != ours {
						t.Fatalf("route parents = %+v, want one of %s", o.Status.Parents, ours)
					}
					checkAccepted(t, "HTTPRoute parent", o.Status.Parents[0].Conditions)
					want := res.Output.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: "default", Name: "r"}]
					if diff := cmp.Diff(want, o.Status.Parents); diff != "" {
						t.Errorf("stored route parents differ from whole-world Translate (-translate +stored):\n%s", diff)
					}
				}
			}
		})
	}
}

func checkAccepted(t *testing.T, what string, conds []metav1.Condition) {
	t.Helper()
	if !meta.IsStatusConditionTrue(conds, string(gwv1.GatewayConditionAccepted)) {
		t.Errorf("%s conditions = %+v, want Accepted=True", what, conds)
	}
}

// TestRunUndefaultedObjects: objects built in Go without the CRD defaults
// (parentRef, backendRef and certificateRef group and kind, listener
// allowedRoutes) go through the index functions, the reconcilers and
// Translate without a panic or an error, and settle; nil reads as empty.
func TestRunUndefaultedObjects(t *testing.T) {
	port := gwv1.PortNumber(80)
	gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "gw"}, Spec: gwv1.GatewaySpec{
		GatewayClassName: "cls", Listeners: []gwv1.Listener{
			{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType},
			{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType, TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "cert"}}}},
		}}}
	route := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "r"}}
	route.Spec.ParentRefs = []gwv1.ParentReference{{Name: "gw"}}
	route.Spec.Rules = []gwv1.HTTPRouteRule{{BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{
		BackendObjectReference: gwv1.BackendObjectReference{Name: "web", Port: &port}}}}}}
	ls := &gwv1.ListenerSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "ls"},
		Spec: gwv1.ListenerSetSpec{ParentRef: gwv1.ParentGatewayReference{Name: "gw"}}}
	objs := []client.Object{gatewayClass("cls", ours), gw, route, ls, service("default", "web"), namespace("default")}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			opts := testOptions()
			opts.Store = factory
			if _, err := Run(context.Background(), objs, diag.Sources{}, opts); err != nil {
				t.Fatal(err)
			}
		})
	}
}
