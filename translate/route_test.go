package translate

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
)

// TestParentRefEchoedAsStored: status.parents echoes a parentRef as the
// API server stores it, group and kind defaulted by the CRD, everything
// else as written. The conformance suite compares group and kind as
// non-nil pointers.
func TestParentRefEchoedAsStored(t *testing.T) {
	group, kind := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway")
	parent := gwParent("http")
	parent.Port = ptr(gwv1.PortNumber(80))
	route := defaulttest.Default(t, testRoute("infra", "web", parent, "svc"))
	out := translateT(t, Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{defaulttest.Default(t, testGateway(httpListener("http", 80, "")))},
		HTTPRoutes:     []*gwv1.HTTPRoute{route},
		Services:       []*corev1.Service{testService("infra", "svc")},
	}, Options{})
	parents := out.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: "infra", Name: "web"}]
	if len(parents) != 1 {
		t.Fatalf("status.parents = %+v, want one", parents)
	}
	want := gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: ptr(gwv1.Namespace("infra")), Name: "gw",
		SectionName: ptr(gwv1.SectionName("http")), Port: ptr(gwv1.PortNumber(80))}
	if got := parents[0].ParentRef; !reflect.DeepEqual(got, want) {
		t.Errorf("status parentRef = %+v, want %+v", got, want)
	}
	if &parents[0].ParentRef.Group == &route.Spec.ParentRefs[0].Group || parents[0].ParentRef.Group == route.Spec.ParentRefs[0].Group {
		t.Errorf("status parentRef shares pointers with the route's spec")
	}
}
