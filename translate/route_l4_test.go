package translate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

func l4Listener(name string, port int32, protocol gwv1.ProtocolType, host string) gwv1.Listener {
	l := gwv1.Listener{Name: gwv1.SectionName(name), Port: gwv1.PortNumber(port), Protocol: protocol,
		AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}
	if protocol == gwv1.TLSProtocolType {
		l.TLS = &gwv1.ListenerTLSConfig{Mode: ptr(gwv1.TLSModePassthrough)}
	}
	if host != "" {
		l.Hostname = ptr(gwv1.Hostname(host))
	}
	return l
}

func backendRefs(names ...string) []gwv1.BackendRef {
	var out []gwv1.BackendRef
	for _, n := range names {
		out = append(out, gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
			Name: gwv1.ObjectName(n), Port: ptr(gwv1.PortNumber(80))}})
	}
	return out
}

func l4Meta(name string, created int) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: "app", Name: name, Generation: 1,
		CreationTimestamp: metav1.NewTime(time.Date(2024, 1, created, 0, 0, 0, 0, time.UTC))}
}

func tlsRoute(name string, created int, parent gwv1.ParentReference, hosts []gwv1.Hostname, backends ...string) *gwv1.TLSRoute {
	return &gwv1.TLSRoute{ObjectMeta: l4Meta(name, created), Spec: gwv1.TLSRouteSpec{
		CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
		Hostnames:       hosts,
		Rules:           []gwv1.TLSRouteRule{{BackendRefs: backendRefs(backends...)}},
	}}
}

func tcpRoute(name string, created int, parent gwv1.ParentReference, backends ...string) *gwv1.TCPRoute {
	return &gwv1.TCPRoute{ObjectMeta: l4Meta(name, created), Spec: gwv1.TCPRouteSpec{
		CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
		Rules:           []gwv1.TCPRouteRule{{BackendRefs: backendRefs(backends...)}},
	}}
}

func udpRoute(name string, created int, parent gwv1.ParentReference, backends ...string) *gwv1.UDPRoute {
	return &gwv1.UDPRoute{ObjectMeta: l4Meta(name, created), Spec: gwv1.UDPRouteSpec{
		CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
		Rules:           []gwv1.UDPRouteRule{{BackendRefs: backendRefs(backends...)}},
	}}
}

// l4Conds returns the reasons of Accepted and ResolvedRefs of the first
// parent of the route kind app/name.
func l4Conds(t *testing.T, out Output, kind, name string) (string, string) {
	t.Helper()
	ps := out.Status.Routes[diag.ObjectRef{Kind: kind, Namespace: "app", Name: name}]
	if len(ps) == 0 {
		t.Fatalf("no parent status for %s app/%s", kind, name)
	}
	return ps[0].Conditions[0].Reason, ps[0].Conditions[1].Reason
}

// l4Port returns the IR listener on port of the only Gateway.
func l4Port(t *testing.T, out Output, port int32) ir.Listener {
	t.Helper()
	if len(out.IR.Gateways) != 1 {
		t.Fatalf("IR has %d gateways, want 1", len(out.IR.Gateways))
	}
	for _, l := range out.IR.Gateways[0].Listeners {
		if l.Port == port {
			return l
		}
	}
	t.Fatalf("IR has no listener on port %d", port)
	return ir.Listener{}
}

func TestL4RouteAttachment(t *testing.T) {
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways: []*gwv1.Gateway{testGateway(
			l4Listener("tls", 443, gwv1.TLSProtocolType, "*.example.com"),
			l4Listener("tcp", 5432, gwv1.TCPProtocolType, ""),
			l4Listener("udp", 53, gwv1.UDPProtocolType, ""),
			httpListener("https", 8443, ""),
		)},
		TLSRoutes: []*gwv1.TLSRoute{
			tlsRoute("sni", 1, gwParent(""), []gwv1.Hostname{"a.example.com", "a.example.net"}, "svc"),
			tlsRoute("wrong-host", 1, gwParent("tls"), []gwv1.Hostname{"a.example.org"}, "svc"),
			tlsRoute("on-http", 1, gwParent("https"), []gwv1.Hostname{"a.example.com"}, "svc"),
		},
		TCPRoutes: []*gwv1.TCPRoute{
			tcpRoute("on-tls", 1, gwParent("tls"), "svc"),
			tcpRoute("missing", 1, gwParent("tcp"), "nope"),
			tcpRoute("by-port", 1, gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "gw", Port: ptr(gwv1.PortNumber(5432))}, "svc"),
		},
		UDPRoutes: []*gwv1.UDPRoute{
			udpRoute("on-tcp", 1, gwParent("tcp"), "svc"),
			udpRoute("dns", 1, gwParent("udp"), "svc"),
		},
		Services: []*corev1.Service{testService("app", "svc")},
	}
	in.Services[0].Spec.Ports = append(in.Services[0].Spec.Ports, corev1.ServicePort{Port: 80, Protocol: corev1.ProtocolUDP})
	out := translateT(t, in, Options{})
	tests := []struct{ kind, route, accepted, refs string }{
		// No sectionName: the TLS listener takes it, the HTTP one does not
		// allow TLSRoute; one listener is enough to be Accepted.
		{"TLSRoute", "sni", "Accepted", "ResolvedRefs"},
		{"TLSRoute", "wrong-host", "NoMatchingListenerHostname", "ResolvedRefs"},
		{"TLSRoute", "on-http", "NotAllowedByListeners", "ResolvedRefs"},
		{"TCPRoute", "on-tls", "NotAllowedByListeners", "ResolvedRefs"},
		{"TCPRoute", "missing", "Accepted", "BackendNotFound"},
		{"TCPRoute", "by-port", "Accepted", "ResolvedRefs"},
		{"UDPRoute", "on-tcp", "NotAllowedByListeners", "ResolvedRefs"},
		{"UDPRoute", "dns", "Accepted", "ResolvedRefs"},
	}
	for _, tt := range tests {
		a, r := l4Conds(t, out, tt.kind, tt.route)
		if a != tt.accepted || r != tt.refs {
			t.Errorf("%s %s: got Accepted=%s ResolvedRefs=%s, want %s %s", tt.kind, tt.route, a, r, tt.accepted, tt.refs)
		}
	}
	gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	attached := map[string]int32{}
	for _, l := range gs.Listeners {
		attached[string(l.Name)] = l.AttachedRoutes
	}
	if want := map[string]int32{"tls": 1, "tcp": 2, "udp": 1, "https": 0}; !cmp.Equal(attached, want) {
		t.Errorf("attachedRoutes = %v, want %v", attached, want)
	}
	// The route hostname outside the listener's is ignored (TLSRoute godoc).
	tls := l4Port(t, out, 443)
	if len(tls.TLSRoutes) != 1 || tls.TLSRoutes[0].SNI != "a.example.com" || tls.TLSRoutes[0].Listener != "tls" {
		t.Errorf("TLS routes = %+v, want one for SNI a.example.com on listener tls", tls.TLSRoutes)
	}
	// UDP takes the Service's UDP port, a cluster of its own.
	udp := l4Port(t, out, 53)
	if len(udp.Forward) != 1 || udp.Forward[0].Backends[0].Cluster != "app/svc:80/UDP" {
		t.Errorf("UDP forwarding = %+v, want app/svc:80/UDP", udp.Forward)
	}
	for _, f := range out.Findings {
		if f.Reason == diag.ReasonNotSupportedYet {
			t.Errorf("unexpected finding %s", f)
		}
	}
}

// The spec rejects an invalid backend's share of connections, and every
// connection when no backend can take any.
func TestL4InvalidBackends(t *testing.T) {
	mixed := tcpRoute("mixed", 1, gwParent("a"), "svc", "nope")
	mixed.Spec.Rules[0].BackendRefs[0].Weight = ptr(int32(3))
	zero := tcpRoute("zero", 1, gwParent("c"), "svc")
	zero.Spec.Rules[0].BackendRefs[0].Weight = ptr(int32(0))
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways: []*gwv1.Gateway{testGateway(l4Listener("a", 1, gwv1.TCPProtocolType, ""),
			l4Listener("b", 2, gwv1.TCPProtocolType, ""), l4Listener("c", 3, gwv1.TCPProtocolType, ""),
			l4Listener("d", 4, gwv1.TCPProtocolType, ""))},
		TCPRoutes: []*gwv1.TCPRoute{mixed, tcpRoute("all-invalid", 1, gwParent("b"), "nope"), zero, tcpRoute("none", 1, gwParent("d"))},
		Services:  []*corev1.Service{testService("app", "svc")},
	}
	out := translateT(t, in, Options{})
	tests := []struct {
		port     int32
		reject   string
		backends []ir.WeightedBackend
	}{
		{1, "", []ir.WeightedBackend{{Cluster: "app/svc:80", Weight: 3}, {Weight: 1, Invalid: "BackendNotFound", Ref: "app/nope:80"}}},
		{2, "no valid backend with a weight above 0", []ir.WeightedBackend{{Weight: 1, Invalid: "BackendNotFound", Ref: "app/nope:80"}}},
		{3, "no valid backend with a weight above 0", []ir.WeightedBackend{{Cluster: "app/svc:80", Weight: 0}}},
		{4, "no backendRefs", nil},
	}
	for _, tt := range tests {
		fw := l4Port(t, out, tt.port).Forward
		if len(fw) != 1 {
			t.Fatalf("port %d: forwarding %+v, want one route", tt.port, fw)
		}
		if fw[0].Reject != tt.reject || !cmp.Equal(fw[0].Backends, tt.backends) {
			t.Errorf("port %d: reject %q backends %+v, want %q %+v", tt.port, fw[0].Reject, fw[0].Backends, tt.reject, tt.backends)
		}
	}
}

// Several routes on one TCP listener (or one TLS listener and SNI) are all
// Accepted and counted; the oldest, then the first by namespace/name, takes
// the traffic (GEP-2644). Each order is checked both ways.
func TestL4Superseded(t *testing.T) {
	tests := []struct {
		name           string
		createdA       int
		createdB       int
		winner, loser  string
		tls            bool
		hostsA, hostsB []gwv1.Hostname
	}{
		{"older wins", 1, 2, "a", "b", false, nil, nil},
		{"older wins, reversed", 2, 1, "b", "a", false, nil, nil},
		{"same age: name order", 1, 1, "a", "b", false, nil, nil},
		{"TLS same SNI", 2, 1, "b", "a", true, []gwv1.Hostname{"x.example.com"}, []gwv1.Hostname{"x.example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{GatewayClasses: []*gwv1.GatewayClass{testClass()}}
			if tt.tls {
				in.Gateways = []*gwv1.Gateway{testGateway(l4Listener("l", 443, gwv1.TLSProtocolType, ""))}
				in.TLSRoutes = []*gwv1.TLSRoute{tlsRoute("b", tt.createdB, gwParent("l"), tt.hostsB, "svc"), tlsRoute("a", tt.createdA, gwParent("l"), tt.hostsA, "svc")}
			} else {
				in.Gateways = []*gwv1.Gateway{testGateway(l4Listener("l", 443, gwv1.TCPProtocolType, ""))}
				in.TCPRoutes = []*gwv1.TCPRoute{tcpRoute("b", tt.createdB, gwParent("l"), "svc"), tcpRoute("a", tt.createdA, gwParent("l"), "svc")}
			}
			in.Services = []*corev1.Service{testService("app", "svc")}
			out := translateT(t, in, Options{})
			p := l4Port(t, out, 443)
			routes := slices.Concat(p.TLSRoutes, p.Forward)
			if len(routes) != 2 || routes[0].Origin.Name != tt.winner || routes[0].SupersededBy != nil ||
				routes[1].Origin.Name != tt.loser || routes[1].SupersededBy == nil || routes[1].SupersededBy.Name != tt.winner {
				t.Fatalf("routes = %+v, want %s live then %s superseded by it", routes, tt.winner, tt.loser)
			}
			if gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]; gs.Listeners[0].AttachedRoutes != 2 {
				t.Errorf("attachedRoutes = %d, want 2", gs.Listeners[0].AttachedRoutes)
			}
			var warned []string
			for _, f := range out.Findings {
				if f.Reason == diag.ReasonSuperseded {
					warned = append(warned, f.Object.Name)
				}
			}
			if !cmp.Equal(warned, []string{tt.loser}) {
				t.Errorf("Superseded findings for %v, want [%s]", warned, tt.loser)
			}
		})
	}
}

// TLS routes are ordered exact SNI first, then wildcards with more labels,
// then the catch-all, whatever the input order.
func TestTLSRouteSNIOrder(t *testing.T) {
	routes := []*gwv1.TLSRoute{
		tlsRoute("catch-all", 1, gwParent("l"), nil, "svc"),
		tlsRoute("short-wildcard", 1, gwParent("l"), []gwv1.Hostname{"*.com"}, "svc"),
		tlsRoute("wildcard", 1, gwParent("l"), []gwv1.Hostname{"*.example.com"}, "svc"),
		tlsRoute("exact", 1, gwParent("l"), []gwv1.Hostname{"a.example.com"}, "svc"),
	}
	want := []string{"a.example.com", "*.example.com", "*.com", "*"}
	for _, reverse := range []bool{false, true} {
		in := Input{
			GatewayClasses: []*gwv1.GatewayClass{testClass()},
			Gateways:       []*gwv1.Gateway{testGateway(l4Listener("l", 443, gwv1.TLSProtocolType, ""))},
			TLSRoutes:      slices.Clone(routes),
			Services:       []*corev1.Service{testService("app", "svc")},
		}
		if reverse {
			slices.Reverse(in.TLSRoutes)
		}
		var got []string
		for _, r := range l4Port(t, translateT(t, in, Options{}), 443).TLSRoutes {
			got = append(got, r.SNI)
		}
		if !cmp.Equal(got, want) {
			t.Errorf("reverse=%v: SNI order %v, want %v", reverse, got, want)
		}
	}
}

// TCPRoute, TLSRoute and UDPRoute allow exactly one rule; gwsim reads other
// counts but says the API server would reject them.
func TestL4RuleCount(t *testing.T) {
	none := tcpRoute("none", 1, gwParent("l"))
	none.Spec.Rules = nil
	two := tcpRoute("two", 1, gwParent("l"), "svc")
	two.Spec.Rules = append(two.Spec.Rules, gwv1.TCPRouteRule{BackendRefs: backendRefs("other")})
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(l4Listener("l", 1, gwv1.TCPProtocolType, ""))},
		TCPRoutes:      []*gwv1.TCPRoute{none, two},
		Services:       []*corev1.Service{testService("app", "svc")},
	}
	out := translateT(t, in, Options{})
	got := map[string]string{}
	for _, f := range out.Findings {
		if f.Field == "spec.rules" {
			got[f.Object.Name] = f.Severity.String() + " " + f.Reason
		}
	}
	want := map[string]string{"none": "error UnsupportedValue", "two": "error UnsupportedValue"}
	if !cmp.Equal(got, want) {
		t.Errorf("rule-count findings = %v, want %v", got, want)
	}
	for _, r := range l4Port(t, out, 1).Forward {
		if r.Origin.Name == "none" && r.Reject != "no rules" {
			t.Errorf("route without rules: reject %q, want \"no rules\"", r.Reject)
		}
		if r.Origin.Name == "two" && (len(r.Backends) != 1 || !strings.HasPrefix(r.Backends[0].Cluster, "app/svc")) {
			t.Errorf("route with two rules: backends %+v, want rules[0]'s only", r.Backends)
		}
	}
}
