package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestGatewayNotAccepted: a Gateway that is not Accepted programs nothing,
// whatever the reason: it has no IR entry, and a route that names it is
// Accepted=False with NotAllowedByListeners.
func TestGatewayNotAccepted(t *testing.T) {
	tests := []struct {
		name   string
		spoil  func(g *gwv1.Gateway)
		reason gwv1.GatewayConditionReason
	}{
		{"accepted", func(*gwv1.Gateway) {}, gwv1.GatewayReasonAccepted},
		{"unresolved parametersRef", func(g *gwv1.Gateway) {
			g.Spec.Infrastructure = &gwv1.GatewayInfrastructure{ParametersRef: &gwv1.LocalParametersReference{Kind: "ConfigMap", Name: "nope"}}
		}, gwv1.GatewayReasonInvalidParameters},
		{"unsupported address type", func(g *gwv1.Gateway) {
			g.Spec.Addresses = []gwv1.GatewaySpecAddress{{Type: ptr(gwv1.AddressType("example.com/Bogus")), Value: "x"}}
		}, gwv1.GatewayReasonUnsupportedAddress},
		{"no valid listener", func(g *gwv1.Gateway) {
			g.Spec.Listeners[0].Protocol = "Bogus"
		}, gwv1.GatewayReasonListenersNotValid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gw := testGateway(httpListener("http", 80, ""))
			tt.spoil(gw)
			out := translateT(t, Input{
				GatewayClasses: []*gwv1.GatewayClass{testClass()},
				Gateways:       []*gwv1.Gateway{gw},
				HTTPRoutes:     []*gwv1.HTTPRoute{testRoute("app", "r", gwParent(""), "svc")},
				Services:       []*corev1.Service{testService("app", "svc")},
			}, Options{})
			gs := out.Status.Gateways[keyOf("infra", "gw")]
			if c := meta.FindStatusCondition(gs.Conditions, "Accepted"); c.Reason != string(tt.reason) {
				t.Fatalf("Gateway Accepted reason = %s, want %s", c.Reason, tt.reason)
			}
			ok := tt.reason == gwv1.GatewayReasonAccepted
			if got := len(out.IR.Gateways) == 1; got != ok {
				t.Errorf("Gateway in the IR = %v, want %v", got, ok)
			}
			wantRoute := string(gwv1.RouteReasonAccepted)
			if !ok {
				wantRoute = string(gwv1.RouteReasonNotAllowedByListeners)
			}
			if got, _ := routeConds(t, out, "app", "r"); got != wantRoute {
				t.Errorf("route Accepted reason = %s, want %s", got, wantRoute)
			}
		})
	}
}
