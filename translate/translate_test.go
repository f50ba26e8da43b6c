package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
)

func ptr[T any](v T) *T { return &v }

func testClass() *gwv1.GatewayClass {
	return &gwv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "gc"}, Spec: gwv1.GatewayClassSpec{ControllerName: "example.com/c"}}
}

func testGateway(listeners ...gwv1.Listener) *gwv1.Gateway {
	return &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "gw", Generation: 2},
		Spec:       gwv1.GatewaySpec{GatewayClassName: "gc", Listeners: listeners},
	}
}

func httpListener(name string, port int32, host string) gwv1.Listener {
	l := gwv1.Listener{Name: gwv1.SectionName(name), Port: gwv1.PortNumber(port), Protocol: gwv1.HTTPProtocolType,
		AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}
	if host != "" {
		l.Hostname = ptr(gwv1.Hostname(host))
	}
	return l
}

func testRoute(ns, name string, parent gwv1.ParentReference, backend string, hosts ...gwv1.Hostname) *gwv1.HTTPRoute {
	return &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 1},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
			Hostnames:       hosts,
			Rules: []gwv1.HTTPRouteRule{{BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{
				BackendObjectReference: gwv1.BackendObjectReference{Name: gwv1.ObjectName(backend), Port: ptr(gwv1.PortNumber(80))},
			}}}}},
		},
	}
}

func testService(ns, name string) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}
}

func gwParent(section string) gwv1.ParentReference {
	p := gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "gw"}
	if section != "" {
		p.SectionName = ptr(gwv1.SectionName(section))
	}
	return p
}

// routeConds returns the reasons of Accepted and ResolvedRefs of the first
// parent of route ns/name.
func routeConds(t *testing.T, out Output, ns, name string) (string, string) {
	t.Helper()
	ps := out.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: ns, Name: name}]
	if len(ps) == 0 {
		t.Fatalf("no parent status for HTTPRoute %s/%s", ns, name)
	}
	return ps[0].Conditions[0].Reason, ps[0].Conditions[1].Reason
}

func TestRouteAttachmentReasons(t *testing.T) {
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("a", 80, "a.example.com"), httpListener("b", 8080, ""))},
		HTTPRoutes: []*gwv1.HTTPRoute{
			testRoute("app", "ok", gwParent("a"), "svc"),
			testRoute("app", "missing-backend", gwParent(""), "nope"),
			testRoute("app", "no-section", gwParent("zzz"), "svc"),
			testRoute("app", "wrong-host", gwParent("a"), "svc", "b.example.com"),
			testRoute("app", "cross-ns", gwParent("a"), "other"),
		},
		Services: []*corev1.Service{testService("app", "svc"), testService("elsewhere", "other")},
	}
	in.HTTPRoutes[4].Spec.Rules[0].BackendRefs[0].Namespace = ptr(gwv1.Namespace("elsewhere"))
	out := translateT(t, in, Options{})
	tests := []struct{ route, accepted, refs string }{
		{"ok", "Accepted", "ResolvedRefs"},
		{"missing-backend", "Accepted", "BackendNotFound"},
		{"no-section", "NoMatchingParent", "ResolvedRefs"},
		{"wrong-host", "NoMatchingListenerHostname", "ResolvedRefs"},
		{"cross-ns", "Accepted", "RefNotPermitted"},
	}
	for _, tt := range tests {
		a, r := routeConds(t, out, "app", tt.route)
		if a != tt.accepted || r != tt.refs {
			t.Errorf("%s: got Accepted=%s ResolvedRefs=%s, want %s %s", tt.route, a, r, tt.accepted, tt.refs)
		}
	}
	gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	attached := map[string]int32{}
	for _, l := range gs.Listeners {
		attached[string(l.Name)] = l.AttachedRoutes
	}
	// a: ok, missing-backend (no sectionName), cross-ns; b: missing-backend.
	if attached["a"] != 3 || attached["b"] != 1 {
		t.Errorf("attachedRoutes = %v, want a=3 b=1", attached)
	}
	if gs.Conditions[0].ObservedGeneration != 2 {
		t.Errorf("observedGeneration = %d, want 2", gs.Conditions[0].ObservedGeneration)
	}
}

func TestAllowedRoutesNamespaces(t *testing.T) {
	same := httpListener("same", 80, "")
	same.AllowedRoutes = nil
	sel := httpListener("sel", 81, "")
	sel.AllowedRoutes.Namespaces = &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSelector),
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "shop"}}}
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(same, sel)},
		Namespaces:     []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "shop", Labels: map[string]string{"team": "shop"}}}},
		HTTPRoutes: []*gwv1.HTTPRoute{
			testRoute("infra", "same-ok", gwParent("same"), "svc"),
			testRoute("shop", "same-refused", gwParent("same"), "svc"),
			testRoute("shop", "sel-ok", gwParent("sel"), "svc"),
			testRoute("other", "sel-refused", gwParent("sel"), "svc"),
		},
	}
	out := translateT(t, in, Options{})
	for route, want := range map[string]string{
		"infra/same-ok": "Accepted", "shop/same-refused": "NotAllowedByListeners",
		"shop/sel-ok": "Accepted", "other/sel-refused": "NotAllowedByListeners",
	} {
		ref := diag.ObjectRef{Kind: "HTTPRoute"}
		ref.Namespace, ref.Name = splitKey(route)
		if got := out.Status.Routes[ref][0].Conditions[0].Reason; got != want {
			t.Errorf("%s: Accepted reason %s, want %s", route, got, want)
		}
	}
}

func splitKey(s string) (string, string) {
	for i := range s {
		if s[i] == '/' {
			return s[:i], s[i+1:]
		}
	}
	return "", s
}

func TestListenerConflicts(t *testing.T) {
	tcp := gwv1.Listener{Name: "tcp", Port: 80, Protocol: gwv1.TCPProtocolType}
	udp := gwv1.Listener{Name: "udp", Port: 53, Protocol: gwv1.UDPProtocolType}
	tcp53 := gwv1.Listener{Name: "tcp53", Port: 53, Protocol: gwv1.TCPProtocolType}
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways: []*gwv1.Gateway{testGateway(
			httpListener("h1", 80, "a.example.com"), httpListener("h2", 80, "a.example.com"),
			tcp, udp, tcp53, httpListener("h3", 8080, "x"), httpListener("h4", 8080, "y"),
			gwv1.Listener{Name: "weird", Port: 9000, Protocol: "SCTP"},
		)},
	}
	out := translateT(t, in, Options{})
	want := map[string]string{ // listener -> Accepted reason
		"h1": "ProtocolConflict", "h2": "ProtocolConflict", "tcp": "ProtocolConflict",
		"udp": "Accepted", "tcp53": "Accepted", "h3": "Accepted", "h4": "Accepted", "weird": "UnsupportedProtocol",
	}
	gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	for _, l := range gs.Listeners {
		if got := l.Conditions[0].Reason; got != want[string(l.Name)] {
			t.Errorf("listener %s: Accepted reason %s, want %s", l.Name, got, want[string(l.Name)])
		}
	}
	if c := gs.Conditions[0]; c.Status != metav1.ConditionTrue || c.Reason != "ListenersNotValid" {
		t.Errorf("Gateway Accepted = %s/%s, want True/ListenersNotValid", c.Status, c.Reason)
	}
}

func TestHostnameConflict(t *testing.T) {
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("h1", 80, "a.example.com"), httpListener("h2", 80, "a.example.com"))},
	}
	gs := translateT(t, in, Options{}).Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	for _, l := range gs.Listeners {
		if got := l.Conditions[3]; got.Type != "Conflicted" || got.Reason != "HostnameConflict" || got.Status != metav1.ConditionTrue {
			t.Errorf("listener %s: %s=%s %s, want Conflicted=True HostnameConflict", l.Name, got.Type, got.Status, got.Reason)
		}
	}
	if c := gs.Conditions[0]; c.Status != metav1.ConditionFalse || c.Reason != "ListenersNotValid" {
		t.Errorf("Gateway Accepted = %s/%s, want False/ListenersNotValid", c.Status, c.Reason)
	}
}

func TestNotOursGetsNoStatus(t *testing.T) {
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("a", 80, ""))},
	}
	out := translateT(t, in, Options{ControllerNames: []string{"other/controller"}})
	if len(out.Status.GatewayClasses) != 0 || len(out.Status.Gateways) != 0 {
		t.Errorf("status written for another controller's objects: %+v", out.Status)
	}
	if len(out.Findings) != 1 || out.Findings[0].Reason != diag.ReasonNotSimulated {
		t.Errorf("findings = %v, want one NotSimulated", out.Findings)
	}
}

func TestParentNotFoundFinding(t *testing.T) {
	in := Input{HTTPRoutes: []*gwv1.HTTPRoute{testRoute("app", "r", gwParent(""), "svc")}}
	out := translateT(t, in, Options{})
	// The route's Service is not in the input either: its rule answers
	// 500 (EveryRequestFails), which this test does not look at.
	var fs []diag.Finding
	for _, f := range out.Findings {
		if f.Reason != diag.ReasonEveryRequestFails {
			fs = append(fs, f)
		}
	}
	if len(fs) != 1 || fs[0].Reason != diag.ReasonParentNotFound || fs[0].Field != "spec.parentRefs[0]" {
		t.Errorf("findings = %v, want one ParentNotFound at spec.parentRefs[0]", fs)
	}
}

// TestRepeatedMatchNamesKeepTheFirst follows HTTPHeaderMatch.Name and
// HTTPQueryParamMatch.Name: only the first entry with an equivalent name
// counts (header names case-insensitively, query names exactly).
func TestRepeatedMatchNamesKeepTheFirst(t *testing.T) {
	got := HTTPMatches([]gwv1.HTTPRouteMatch{{
		Headers: []gwv1.HTTPHeaderMatch{{Name: "foo", Value: "a"}, {Name: "Foo", Value: "b"}, {Name: "bar", Value: "c"}},
		QueryParams: []gwv1.HTTPQueryParamMatch{
			{Name: "q", Value: "1"}, {Name: "q", Value: "2"}, {Name: "Q", Value: "3"},
		},
	}})[0]
	if len(got.Headers) != 2 || got.Headers[0].Value != "a" || got.Headers[1].Name != "bar" {
		t.Errorf("headers = %+v, want foo=a and bar=c", got.Headers)
	}
	if len(got.QueryParams) != 2 || got.QueryParams[0].Value != "1" || got.QueryParams[1].Name != "Q" {
		t.Errorf("queryParams = %+v, want q=1 and Q=3", got.QueryParams)
	}
}

// TestAssumedNamespaceLabelsOnlyForSelectorListeners checks that the
// namespace-label assumption is reported only when the parentRef reaches a
// listener whose selector had to be evaluated.
func TestAssumedNamespaceLabelsOnlyForSelectorListeners(t *testing.T) {
	all := httpListener("all", 80, "")
	sel := httpListener("sel", 81, "")
	sel.AllowedRoutes.Namespaces = &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSelector),
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "shop"}}}
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(all, sel)},
		HTTPRoutes: []*gwv1.HTTPRoute{
			testRoute("app", "to-all", gwParent("all"), "svc"),
			testRoute("app", "to-sel", gwParent("sel"), "svc"),
		},
		Services: []*corev1.Service{testService("app", "svc")},
	}
	var assumed []string
	for _, f := range translateT(t, in, Options{}).Findings {
		if f.Reason == diag.ReasonAssumed {
			assumed = append(assumed, f.Object.Name)
		}
	}
	if len(assumed) != 1 || assumed[0] != "to-sel" {
		t.Errorf("Assumed findings for %v, want only to-sel", assumed)
	}
}

// translateT is Translate on in after the CRD defaults are applied to its
// Gateway API objects (in place, through internal/defaulttest), as the
// loader applies them before Translate sees an object: Translate has no
// defaults of its own.
func translateT(t testing.TB, in Input, opts Options) Output {
	t.Helper()
	var objs []client.Object
	objs = appendObjects(objs, in.GatewayClasses)
	objs = appendObjects(objs, in.Gateways)
	objs = appendObjects(objs, in.ListenerSets)
	objs = appendObjects(objs, in.HTTPRoutes)
	objs = appendObjects(objs, in.GRPCRoutes)
	objs = appendObjects(objs, in.TLSRoutes)
	objs = appendObjects(objs, in.TCPRoutes)
	objs = appendObjects(objs, in.UDPRoutes)
	objs = appendObjects(objs, in.BackendTLSPolicies)
	objs = appendObjects(objs, in.ReferenceGrants)
	defaulttest.All(t, objs...)
	return Translate(in, opts)
}

func appendObjects[T client.Object](objs []client.Object, s []T) []client.Object {
	for _, o := range s {
		objs = append(objs, o)
	}
	return objs
}
