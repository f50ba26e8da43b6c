package translate

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

func translateGRPC(t *testing.T, g *gwv1.GRPCRoute) Output {
	t.Helper()
	return translateT(t, Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("web", 80, ""))},
		GRPCRoutes:     []*gwv1.GRPCRoute{g},
		Services:       []*corev1.Service{testService("app", "svc")},
	}, Options{})
}

// irRoutes returns the routes of the only virtual host.
func irRoutes(t *testing.T, out Output) []ir.Route {
	t.Helper()
	if len(out.IR.Gateways) != 1 || len(out.IR.Gateways[0].Listeners) != 1 || len(out.IR.Gateways[0].Listeners[0].VirtualHosts) != 1 {
		t.Fatalf("want one gateway, port and virtual host; IR: %+v", out.IR)
	}
	return out.IR.Gateways[0].Listeners[0].VirtualHosts[0].Routes
}

func TestGRPCRouteRules(t *testing.T) {
	g := testGRPCRoute("app", "g", gwParent(""), "svc")
	rule := g.Spec.Rules[0]
	rule.Matches = []gwv1.GRPCRouteMatch{{Method: methodMatch("", "pkg.Svc", "Get")}, {Method: methodMatch("", "pkg.Svc", "")}}
	rule.Filters = []gwv1.GRPCRouteFilter{{Type: gwv1.GRPCRouteFilterRequestHeaderModifier,
		RequestHeaderModifier: &gwv1.HTTPHeaderFilter{Set: []gwv1.HTTPHeader{{Name: "x-via", Value: "gw"}}}}}
	missing := gwv1.GRPCRouteRule{BackendRefs: []gwv1.GRPCBackendRef{{BackendRef: gwv1.BackendRef{
		BackendObjectReference: gwv1.BackendObjectReference{Name: "nope", Port: ptr(gwv1.PortNumber(80))}}}}}
	g.Spec.Rules = []gwv1.GRPCRouteRule{rule, missing}
	out := translateGRPC(t, g)
	routes := irRoutes(t, out)
	if len(routes) != 3 {
		t.Fatalf("got %d routes, want 3 (two matches of rule 0, rule 1's catch-all)", len(routes))
	}
	if m := routes[0].Match; m.PathType != "Exact" || m.Path != "/pkg.Svc/Get" || len(routes[0].Filters) != 1 || routes[0].Filters[0].RequestHeaderModifier == nil {
		t.Errorf("first route: %+v, want the exact method with the header modifier", routes[0])
	}
	if m := routes[1].Match; m.PathType != "PathPrefix" || m.Path != "/pkg.Svc" {
		t.Errorf("second route: %+v, want the service prefix", m)
	}
	if d := routes[2].Action.DirectResponse; d == nil || d.Status != 503 || !strings.Contains(d.Reason, "UNAVAILABLE") {
		t.Errorf("rule with a missing backend: %+v, want a 503 (gRPC UNAVAILABLE)", routes[2].Action)
	}
	ps := out.Status.Routes[diag.ObjectRef{Kind: "GRPCRoute", Namespace: "app", Name: "g"}]
	if len(ps) != 1 || ps[0].Conditions[0].Status != metav1.ConditionTrue || ps[0].Conditions[1].Reason != "BackendNotFound" {
		t.Errorf("status: %+v, want Accepted and ResolvedRefs=False (BackendNotFound)", ps)
	}
}

// TestGRPCRouteInvalidRules checks that an invalid match or a filter type
// GRPCRoute does not define drops its rule (PartiallyInvalid), and that a
// route whose every rule is invalid is not accepted.
func TestGRPCRouteInvalidRules(t *testing.T) {
	valid := testGRPCRoute("app", "g", gwParent(""), "svc").Spec.Rules[0]
	badMatch := valid
	badMatch.Matches = []gwv1.GRPCRouteMatch{{Method: methodMatch("", "a/b", "")}}
	badFilter := valid
	badFilter.Filters = []gwv1.GRPCRouteFilter{{Type: "URLRewrite"}}
	for _, tt := range []struct {
		name  string
		rules []gwv1.GRPCRouteRule
		cond  string
		want  metav1.ConditionStatus
	}{
		{"invalid match, valid rule", []gwv1.GRPCRouteRule{valid, badMatch}, "PartiallyInvalid", metav1.ConditionTrue},
		{"invalid filter type, valid rule", []gwv1.GRPCRouteRule{valid, badFilter}, "PartiallyInvalid", metav1.ConditionTrue},
		{"every rule invalid", []gwv1.GRPCRouteRule{badMatch, badFilter}, "Accepted", metav1.ConditionFalse},
	} {
		g := testGRPCRoute("app", "g", gwParent(""), "svc")
		g.Spec.Rules = tt.rules
		out := translateGRPC(t, g)
		ps := out.Status.Routes[diag.ObjectRef{Kind: "GRPCRoute", Namespace: "app", Name: "g"}]
		if len(ps) != 1 {
			t.Fatalf("%s: %d parent statuses, want 1", tt.name, len(ps))
		}
		found := false
		for _, c := range ps[0].Conditions {
			if c.Type == tt.cond {
				found = true
				if c.Status != tt.want || c.Reason != "UnsupportedValue" {
					t.Errorf("%s: %s=%s (%s: %s), want %s UnsupportedValue", tt.name, c.Type, c.Status, c.Reason, c.Message, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s condition in %+v", tt.name, tt.cond, ps[0].Conditions)
		}
	}
}
