package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// undefaultedInput holds objects built in Go without the CRD defaults:
// every field the CRDs default is left nil or empty (parentRef and
// backendRef group, kind and weight, listener tls.mode and allowedRoutes
// parts, certificateRef group and kind, address type, match path and
// types, redirect status code, mirror denominator, CORS maxAge, session
// persistence type and lifetime, ListenerSet parentRef group and kind).
func undefaultedInput() Input {
	gw := testGateway(
		gwv1.Listener{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType},
		gwv1.Listener{Name: "kinds", Port: 81, Protocol: gwv1.HTTPProtocolType,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{}, Kinds: []gwv1.RouteGroupKind{{Kind: "HTTPRoute"}}}},
		gwv1.Listener{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType,
			TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "cert"}}}},
		gwv1.Listener{Name: "tls", Port: 8443, Protocol: gwv1.TLSProtocolType, TLS: &gwv1.ListenerTLSConfig{}},
	)
	gw.Spec.Addresses = []gwv1.GatewaySpecAddress{{Value: "192.0.2.1"}}
	gw.Spec.AllowedListeners = &gwv1.AllowedListeners{Namespaces: &gwv1.ListenerNamespaces{}}
	gw.Spec.TLS = &gwv1.GatewayTLSConfig{
		Backend:  &gwv1.GatewayBackendTLS{ClientCertificateRef: &gwv1.SecretObjectReference{Name: "client"}},
		Frontend: &gwv1.FrontendTLSConfig{Default: gwv1.TLSConfig{Validation: &gwv1.FrontendTLSValidation{}}},
	}
	ls := &gwv1.ListenerSet{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "ls"},
		Spec: gwv1.ListenerSetSpec{ParentRef: gwv1.ParentGatewayReference{Name: "gw"},
			Listeners: []gwv1.ListenerEntry{{Name: "ls", Port: 82, Protocol: gwv1.HTTPProtocolType}}}}

	route := testRoute("infra", "web", gwv1.ParentReference{Name: "gw"}, "svc")
	route.Spec.Rules[0].Matches = []gwv1.HTTPRouteMatch{{
		Path:        &gwv1.HTTPPathMatch{},
		Headers:     []gwv1.HTTPHeaderMatch{{Name: "h", Value: "v"}},
		QueryParams: []gwv1.HTTPQueryParamMatch{{Name: "q", Value: "v"}},
	}, {}}
	route.Spec.Rules[0].SessionPersistence = &gwv1.SessionPersistence{CookieConfig: &gwv1.CookieConfig{}}
	route.Spec.Rules = append(route.Spec.Rules,
		gwv1.HTTPRouteRule{Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gwv1.HTTPRequestRedirectFilter{}}}},
		gwv1.HTTPRouteRule{
			Filters: []gwv1.HTTPRouteFilter{
				{Type: gwv1.HTTPRouteFilterRequestMirror, RequestMirror: &gwv1.HTTPRequestMirrorFilter{
					BackendRef: gwv1.BackendObjectReference{Name: "svc", Port: ptr(gwv1.PortNumber(80))}, Fraction: &gwv1.Fraction{Numerator: 1}}},
				{Type: gwv1.HTTPRouteFilterCORS, CORS: &gwv1.HTTPCORSFilter{AllowOrigins: []gwv1.CORSOrigin{"https://example.com"}}},
			},
			BackendRefs: route.Spec.Rules[0].BackendRefs,
		})

	grpc := &gwv1.GRPCRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "grpc"}}
	grpc.Spec.ParentRefs = []gwv1.ParentReference{{Name: "gw"}}
	grpc.Spec.Rules = []gwv1.GRPCRouteRule{{
		Matches: []gwv1.GRPCRouteMatch{{
			Method:  &gwv1.GRPCMethodMatch{Service: ptr("pkg.Svc")},
			Headers: []gwv1.GRPCHeaderMatch{{Name: "h", Value: "v"}},
		}},
		BackendRefs: []gwv1.GRPCBackendRef{{BackendRef: route.Spec.Rules[0].BackendRefs[0].BackendRef}},
	}}
	tls := &gwv1.TLSRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "tls"}}
	tls.Spec.ParentRefs = []gwv1.ParentReference{{Name: "ls", Kind: ptr(gwv1.Kind("ListenerSet"))}, {Name: "gw"}}
	tls.Spec.Rules = []gwv1.TLSRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: gwv1.BackendObjectReference{Name: "svc", Port: ptr(gwv1.PortNumber(80))}}}}}

	// Copies that name their parents in full, to reach the listeners.
	group, gwKind := ptr(gwv1.Group(gwv1.GroupName)), ptr(gwv1.Kind("Gateway"))
	attached := route.DeepCopy()
	attached.Name = "attached"
	attached.Spec.ParentRefs = []gwv1.ParentReference{{Group: group, Kind: gwKind, Name: "gw"}}
	lsNamed := ls.DeepCopy()
	lsNamed.Name = "named"
	lsNamed.Spec.ParentRef.Group, lsNamed.Spec.ParentRef.Kind = group, gwKind

	return Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{gw},
		ListenerSets:   []*gwv1.ListenerSet{ls, lsNamed},
		HTTPRoutes:     []*gwv1.HTTPRoute{route, attached},
		GRPCRoutes:     []*gwv1.GRPCRoute{grpc},
		TLSRoutes:      []*gwv1.TLSRoute{tls},
		Services:       []*corev1.Service{testService("infra", "svc")},
	}
}

// TestUndefaultedInputIsSafe: Translate has no defaults of its own, and
// objects built in Go can skip the loader's defaulting. A field the CRDs
// default that is nil reads as empty: the output is whatever that means
// (mostly findings), never a panic, and the same on every run.
func TestUndefaultedInputIsSafe(t *testing.T) {
	first := Translate(undefaultedInput(), Options{})
	BuildGraph(undefaultedInput(), first)
	if len(first.Findings) == 0 {
		t.Errorf("no findings for objects without their defaults")
	}
	again := Translate(undefaultedInput(), Options{})
	if len(again.Findings) != len(first.Findings) || len(again.IR.Gateways) != len(first.IR.Gateways) {
		t.Errorf("a second run differs: %d findings, %d gateways; first %d, %d",
			len(again.Findings), len(again.IR.Gateways), len(first.Findings), len(first.IR.Gateways))
	}
}

// TestDefaultedInputMeansTheDefaults: the same objects, defaulted as the
// loader does, translate as the defaults say: the parentRef names the
// Gateway, the backendRef is a core Service of weight 1, the path match is
// PathPrefix "/", the redirect answers 302.
func TestDefaultedInputMeansTheDefaults(t *testing.T) {
	out := translateT(t, undefaultedInput(), Options{})
	c := acceptedOf(t, out, "HTTPRoute", "infra", "web")
	if c.Status != metav1.ConditionTrue {
		t.Fatalf("HTTPRoute Accepted = %s (%s: %s), want True", c.Status, c.Reason, c.Message)
	}
	var redirect, backend, prefix bool
	for _, g := range out.IR.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				for _, r := range vh.Routes {
					prefix = prefix || r.Match.PathType == string(gwv1.PathMatchPathPrefix) && r.Match.Path == "/"
					if d := r.Action.Redirect; d != nil {
						redirect = redirect || d.StatusCode == 302
					}
					for _, b := range r.Action.Backends {
						backend = backend || b.Weight == 1 && b.Invalid == ""
					}
				}
			}
		}
	}
	if !redirect || !backend || !prefix {
		t.Errorf("IR: redirect 302 %v, valid backend of weight 1 %v, PathPrefix / %v; want all", redirect, backend, prefix)
	}
}
