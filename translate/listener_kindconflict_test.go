package translate

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

func testGRPCRoute(ns, name string, parent gwv1.ParentReference, backend string, hosts ...gwv1.Hostname) *gwv1.GRPCRoute {
	return &gwv1.GRPCRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 1},
		Spec: gwv1.GRPCRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
			Hostnames:       hosts,
			Rules: []gwv1.GRPCRouteRule{{BackendRefs: []gwv1.GRPCBackendRef{{BackendRef: gwv1.BackendRef{
				BackendObjectReference: gwv1.BackendObjectReference{Name: gwv1.ObjectName(backend), Port: ptr(gwv1.PortNumber(80))},
			}}}}},
		},
	}
}

func createdAt(sec int64) metav1.Time { return metav1.NewTime(time.Unix(sec, 0)) }

// acceptedOf returns the Accepted condition of the first parent of a route.
func acceptedOf(t *testing.T, out Output, kind, ns, name string) metav1.Condition {
	t.Helper()
	ps := out.Status.Routes[diag.ObjectRef{Kind: kind, Namespace: ns, Name: name}]
	if len(ps) == 0 {
		t.Fatalf("no parent status for %s %s/%s", kind, ns, name)
	}
	return ps[0].Conditions[0]
}

// TestHTTPGRPCHostnameConflict checks GRPCRouteSpec.Hostnames' rule: an
// HTTPRoute and a GRPCRoute on one listener with intersecting hostnames
// cannot both be accepted; the oldest, then the first by namespace/name,
// wins, whatever the input order; disjoint hostnames or other listeners do
// not conflict.
func TestHTTPGRPCHostnameConflict(t *testing.T) {
	tests := []struct {
		name                 string
		httpHosts, grpcHosts []gwv1.Hostname
		httpAge, grpcAge     int64 // creation seconds; smaller is older
		httpName, grpcName   string
		grpcSection          string
		wantHTTP, wantGRPC   bool
	}{
		{"same host, HTTPRoute older", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"a.example.com"}, 100, 200, "r", "r", "", true, false},
		{"same host, GRPCRoute older", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"a.example.com"}, 200, 100, "r", "r", "", false, true},
		{"same age: namespace/name decides", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"a.example.com"}, 0, 0, "b", "a", "", false, true},
		{"same age: namespace/name decides, other way", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"a.example.com"}, 0, 0, "a", "b", "", true, false},
		{"wildcard intersects", []gwv1.Hostname{"*.example.com"}, []gwv1.Hostname{"a.example.com"}, 100, 200, "r", "r", "", true, false},
		{"no hostnames intersect everything", nil, []gwv1.Hostname{"a.example.com"}, 200, 100, "r", "r", "", false, true},
		{"disjoint hostnames", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"b.example.com"}, 100, 200, "r", "r", "", true, true},
		{"other listener", []gwv1.Hostname{"a.example.com"}, []gwv1.Hostname{"a.example.com"}, 100, 200, "r", "r", "other", true, true},
	}
	for _, tt := range tests {
		{
			h := testRoute("app", tt.httpName, gwParent("web"), "svc", tt.httpHosts...)
			h.CreationTimestamp = createdAt(tt.httpAge)
			g := testGRPCRoute("app", tt.grpcName, gwParent("web"), "svc", tt.grpcHosts...)
			if tt.grpcSection != "" {
				g.Spec.ParentRefs[0] = gwParent(tt.grpcSection)
			}
			g.CreationTimestamp = createdAt(tt.grpcAge)
			if tt.httpAge == 0 {
				h.CreationTimestamp, g.CreationTimestamp = metav1.Time{}, metav1.Time{}
			}
			in := Input{
				GatewayClasses: []*gwv1.GatewayClass{testClass()},
				Gateways:       []*gwv1.Gateway{testGateway(httpListener("web", 80, ""), httpListener("other", 8080, ""))},
				HTTPRoutes:     []*gwv1.HTTPRoute{h},
				GRPCRoutes:     []*gwv1.GRPCRoute{g},
				Services:       []*corev1.Service{testService("app", "svc")},
			}
			out := translateT(t, in, Options{})
			hc := acceptedOf(t, out, "HTTPRoute", "app", tt.httpName)
			gc := acceptedOf(t, out, "GRPCRoute", "app", tt.grpcName)
			if got := hc.Status == metav1.ConditionTrue; got != tt.wantHTTP {
				t.Errorf("%s: HTTPRoute Accepted=%s (%s: %s), want %v", tt.name, hc.Status, hc.Reason, hc.Message, tt.wantHTTP)
			}
			if got := gc.Status == metav1.ConditionTrue; got != tt.wantGRPC {
				t.Errorf("%s: GRPCRoute Accepted=%s (%s: %s), want %v", tt.name, gc.Status, gc.Reason, gc.Message, tt.wantGRPC)
			}
			for _, c := range []metav1.Condition{hc, gc} {
				if c.Status == metav1.ConditionFalse && (c.Reason != "NotAllowedByListeners" || !strings.Contains(c.Message, "may not share a hostname")) {
					t.Errorf("%s: refused route: %s %q, want NotAllowedByListeners explaining the conflict", tt.name, c.Reason, c.Message)
				}
			}
		}
	}
}

// TestHTTPGRPCConflictPartial checks a parentRef that attaches to two
// listeners and is refused on one: it stays Accepted, leaves the refused
// listener (attachedRoutes and IR), and gets a warning.
func TestHTTPGRPCConflictPartial(t *testing.T) {
	h := testRoute("app", "web", gwParent("web"), "svc")
	h.CreationTimestamp = createdAt(100)
	g := testGRPCRoute("app", "grpc", gwParent(""), "svc")
	g.CreationTimestamp = createdAt(200)
	out := translateT(t, Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("web", 80, ""), httpListener("other", 8080, ""))},
		HTTPRoutes:     []*gwv1.HTTPRoute{h},
		GRPCRoutes:     []*gwv1.GRPCRoute{g},
		Services:       []*corev1.Service{testService("app", "svc")},
	}, Options{})
	c := acceptedOf(t, out, "GRPCRoute", "app", "grpc")
	if c.Status != metav1.ConditionTrue || !strings.Contains(c.Message, "listener(s) other;") || !strings.Contains(c.Message, "listener web refuses") {
		t.Errorf("GRPCRoute Accepted=%s %q, want True on listener other and the refusal by web explained", c.Status, c.Message)
	}
	attached := map[gwv1.SectionName]int32{}
	for _, l := range out.Status.Gateways[keyOf("infra", "gw")].Listeners {
		attached[l.Name] = l.AttachedRoutes
	}
	if attached["web"] != 1 || attached["other"] != 1 {
		t.Errorf("attachedRoutes = %v, want web:1 (the HTTPRoute) other:1 (the GRPCRoute)", attached)
	}
	for _, l := range out.IR.Gateways[0].Listeners {
		for _, vh := range l.VirtualHosts {
			for _, r := range vh.Routes {
				if vh.Listener == "web" && r.Origin.Kind != "HTTPRoute" || vh.Listener == "other" && r.Origin.Kind != "GRPCRoute" {
					t.Errorf("listener %s serves %s %s", vh.Listener, r.Origin.Kind, r.Origin.Name)
				}
			}
		}
	}
	warned := false
	for _, f := range out.Findings {
		warned = warned || f.Object.Kind == "GRPCRoute" && f.Severity == diag.Warning && f.Reason == "NotAllowedByListeners"
	}
	if !warned {
		t.Errorf("no warning for the refused listener; findings: %v", out.Findings)
	}
}
