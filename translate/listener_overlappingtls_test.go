package translate

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/internal/defaulttest"
)

func TestHostnamesOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"*.example.com", "foo.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "*.foo.example.com", true},
		{"", "foo.example.com", true},
		{"", "", true},
		{"foo.example.com", "foo.example.org", false},
		{"*.example.com", "example.com", false},
		{"*.example.com", "*.example.org", false},
		{"foo.example.com", "bar.example.com", false},
	}
	for _, tt := range tests {
		if got := hostnamesOverlap(tt.a, tt.b); got != tt.want {
			t.Errorf("hostnamesOverlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := hostnamesOverlap(tt.b, tt.a); got != tt.want {
			t.Errorf("hostnamesOverlap(%q, %q) = %v, want %v (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestMarkOverlappingTLS follows the godoc's example (A and C overlap, B
// does not) and checks that only accepted listeners terminating TLS on the
// same port count.
func TestMarkOverlappingTLS(t *testing.T) {
	passthrough := gwv1.TLSModePassthrough
	gw := listenerOwner{kind: "Gateway", namespace: "ns", name: "gw"}
	l := func(name, host string, port int32, proto gwv1.ProtocolType, accepted bool) *listenerResult {
		spec := gwv1.Listener{Name: gwv1.SectionName(name), Port: gwv1.PortNumber(port), Protocol: proto}
		if host != "" {
			h := gwv1.Hostname(host)
			spec.Hostname = &h
		}
		return &listenerResult{spec: spec, owner: gw, accepted: accepted}
	}
	pt := l("pt", "*.example.com", 443, gwv1.TLSProtocolType, true)
	pt.spec.TLS = &gwv1.ListenerTLSConfig{Mode: &passthrough}
	listeners := []*listenerResult{
		l("a", "foo.example.com", 443, gwv1.HTTPSProtocolType, true),
		l("b", "foo.example.org", 443, gwv1.HTTPSProtocolType, true),
		l("c", "*.example.com", 443, gwv1.HTTPSProtocolType, true),
		l("other-port", "bar.example.com", 8443, gwv1.HTTPSProtocolType, true),
		l("http", "bar.example.com", 80, gwv1.HTTPProtocolType, true),
		l("rejected", "bar.example.com", 443, gwv1.HTTPSProtocolType, false),
		pt,
		l("tls", "x.example.com", 443, gwv1.TLSProtocolType, true),
	}
	listeners[len(listeners)-1].spec.TLS = &gwv1.ListenerTLSConfig{} // the CRD defaults its mode to Terminate
	for _, r := range listeners {
		r.spec = defaultedListener(t, r.spec)
	}
	markOverlappingTLS(listeners, "ns/gw")
	want := map[string]bool{"a": true, "c": true, "tls": true}
	for _, r := range listeners {
		if got := r.overlap != ""; got != want[string(r.spec.Name)] {
			t.Errorf("listener %s: overlap = %q, want overlap %v", r.spec.Name, r.overlap, want[string(r.spec.Name)])
		}
	}
}

// defaultedListener is l with the CRD defaults, as a Gateway the loader
// reads has them.
func defaultedListener(t *testing.T, l gwv1.Listener) gwv1.Listener {
	t.Helper()
	gw := &gwv1.Gateway{Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{*l.DeepCopy()}}}
	return defaulttest.Default(t, gw).Spec.Listeners[0]
}

func TestCertificatesOverlap(t *testing.T) {
	tests := []struct {
		a, b []string
		want bool
	}{
		{[]string{"*.example.com"}, []string{"shop.example.com"}, true},
		{[]string{"shop.example.com"}, []string{"shop.example.com"}, true},
		{[]string{"api.example.com", "www.example.org"}, []string{"*.example.org"}, true},
		{[]string{"*.example.com"}, []string{"*.example.com"}, true},
		{[]string{"*.example.com"}, []string{"example.com"}, false},
		{[]string{"shop.example.com"}, []string{"api.example.com"}, false},
		{nil, []string{"api.example.com"}, false},
		{nil, nil, false},
	}
	for _, tt := range tests {
		if _, _, got := certificatesOverlap(tt.a, tt.b); got != tt.want {
			t.Errorf("certificatesOverlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if _, _, got := certificatesOverlap(tt.b, tt.a); got != tt.want {
			t.Errorf("certificatesOverlap(%q, %q) = %v, want %v (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestMarkOverlappingCertificates: listeners whose hostnames do not overlap
// but whose certificates do get OverlappingCertificates; a listener with
// both kinds of overlap gets OverlappingCertificates too (the godoc's
// SHOULD), and one whose certificate is only assumed (no names) falls back
// to comparing hostnames.
func TestMarkOverlappingCertificates(t *testing.T) {
	gw := listenerOwner{kind: "Gateway", namespace: "ns", name: "gw"}
	l := func(name, host string, certNames ...string) *listenerResult {
		h := gwv1.Hostname(host)
		spec := gwv1.Listener{Name: gwv1.SectionName(name), Port: 443, Protocol: gwv1.HTTPSProtocolType, Hostname: &h}
		return &listenerResult{spec: spec, owner: gw, accepted: true, certNames: certNames}
	}
	listeners := []*listenerResult{
		l("shop", "shop.example.com", "*.example.com"),
		l("api", "api.example.com", "api.example.com"),
		l("org", "foo.example.org", "foo.example.org"),
		l("assumed", "x.example.org"),
		l("wild", "*.example.org"),
	}
	markOverlappingTLS(listeners, "ns/gw")
	want := map[string]string{
		"shop":    string(gwv1.ListenerReasonOverlappingCertificates),
		"api":     string(gwv1.ListenerReasonOverlappingCertificates),
		"org":     string(gwv1.ListenerReasonOverlappingHostnames),
		"assumed": string(gwv1.ListenerReasonOverlappingHostnames),
		"wild":    string(gwv1.ListenerReasonOverlappingHostnames),
	}
	for _, r := range listeners {
		if r.overlapReason != want[string(r.spec.Name)] {
			t.Errorf("listener %s: reason %q (%s), want %q", r.spec.Name, r.overlapReason, r.overlap, want[string(r.spec.Name)])
		}
	}
}
