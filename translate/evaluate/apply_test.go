package evaluate

import (
	"net/http"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// oneRoute is an IR with one route on an HTTP listener on port 80 and an
// HTTPS listener on 443 for example.org.
func oneRoute(r ir.Route) ir.IR {
	r.Match = ir.Match{PathType: "PathPrefix", Path: "/"}
	vh := func(l string) []ir.VirtualHost {
		return []ir.VirtualHost{{Hostname: "*", Listener: l, Routes: []ir.Route{r}}}
	}
	return ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{
		{Port: 80, Protocol: "HTTP", Listeners: []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}}, VirtualHosts: vh("http")},
		{Port: 443, Protocol: "HTTPS", Listeners: []ir.GatewayListener{{Name: "https", Protocol: "HTTPS"}}, VirtualHosts: vh("https")},
		{Port: 8080, Protocol: "HTTP", Listeners: []ir.GatewayListener{{Name: "alt", Protocol: "HTTP"}}, VirtualHosts: vh("alt")},
	}}}}
}

func backends(names ...string) []ir.WeightedBackend {
	out := make([]ir.WeightedBackend, len(names))
	for i, n := range names {
		out[i] = ir.WeightedBackend{Cluster: n, Weight: 1}
	}
	return out
}

// TestRedirectPortAndScheme follows the upstream conformance test
// HTTPRouteRedirectPortAndScheme: the scheme defaults to the request's
// (https on an HTTPS listener), the port to the scheme's well-known port
// when the scheme is set and to the listener's otherwise, and well-known
// ports are left out.
func TestRedirectPortAndScheme(t *testing.T) {
	tests := []struct {
		port   int32
		scheme string
		rport  int32
		want   string
	}{
		{80, "", 0, "http://example.org/p"},
		{80, "", 80, "http://example.org/p"},
		{80, "", 8080, "http://example.org:8080/p"},
		{80, "https", 0, "https://example.org/p"},
		{80, "https", 443, "https://example.org/p"},
		{80, "https", 8443, "https://example.org:8443/p"},
		{8080, "", 0, "http://example.org:8080/p"},
		{8080, "", 80, "http://example.org/p"},
		{8080, "https", 0, "https://example.org/p"},
		{443, "", 0, "https://example.org/p"},
		{443, "", 443, "https://example.org/p"},
		{443, "", 8443, "https://example.org:8443/p"},
		{443, "http", 0, "http://example.org/p"},
		{443, "http", 80, "http://example.org/p"},
		{443, "http", 8080, "http://example.org:8080/p"},
	}
	for _, tt := range tests {
		model := oneRoute(ir.Route{Action: ir.Action{Redirect: &ir.Redirect{Scheme: tt.scheme, Port: tt.rport, StatusCode: 302}}})
		res := Evaluate(model, Request{Host: "example.org", Port: tt.port, Path: "/p"})
		if res.Outcome != Redirected || res.Location != tt.want {
			t.Errorf("listener %d scheme %q port %d: %s %q, want %q", tt.port, tt.scheme, tt.rport, res.Outcome, res.Location, tt.want)
		}
	}
}

func TestRedirectKeepsQuery(t *testing.T) {
	model := oneRoute(ir.Route{Action: ir.Action{Redirect: &ir.Redirect{PathType: "ReplaceFullPath", Path: "/new", StatusCode: 303}}})
	res := Evaluate(model, Request{Host: "a", Port: 80, Path: "/old?x=1"})
	if res.Status != 303 || res.Location != "http://a/new?x=1" {
		t.Errorf("got %d %q", res.Status, res.Location)
	}
}

func TestDirectResponseBeforeRedirect(t *testing.T) {
	model := oneRoute(ir.Route{Action: ir.Action{
		Redirect:       &ir.Redirect{StatusCode: 302},
		DirectResponse: &ir.DirectResponse{Status: 500, Reason: "unresolved ExtensionRef filter"},
	}})
	if res := Evaluate(model, Request{Host: "a", Port: 80}); res.Outcome != DirectResponse || res.Status != 500 {
		t.Errorf("got %s %d, want DirectResponse 500", res.Outcome, res.Status)
	}
}

// conformanceCORS is the first route of the upstream HTTPRouteCORS test.
func conformanceCORS() *ir.CORS {
	return &ir.CORS{
		AllowOrigins: []string{"https://www.foo.com", "https://*.bar.com"}, AllowMethods: []string{"GET", "OPTIONS"},
		AllowHeaders: []string{"x-header-1", "x-header-2"}, ExposeHeaders: []string{"x-header-3", "x-header-4"},
		AllowCredentials: true, MaxAge: 3600,
	}
}

func TestCORS(t *testing.T) {
	wildcard := &ir.CORS{AllowOrigins: []string{"*"}, AllowMethods: []string{"*"}, AllowHeaders: []string{"*"}, AllowCredentials: true, MaxAge: 5}
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	tests := []struct {
		name    string
		cors    *ir.CORS
		method  string
		headers http.Header
		outcome Outcome
		want    http.Header
	}{
		{"preflight, exact origin", conformanceCORS(), "OPTIONS",
			hdr("Origin", "https://www.foo.com", "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "x-header-1, x-header-2"),
			CORSPreflight, hdr("Access-Control-Allow-Origin", "https://www.foo.com", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Allow-Methods", "GET, OPTIONS", "Access-Control-Allow-Headers", "x-header-1, x-header-2",
				"Access-Control-Expose-Headers", "x-header-3, x-header-4", "Access-Control-Max-Age", "3600")},
		{"preflight, wildcard origin with labels", conformanceCORS(), "OPTIONS",
			hdr("Origin", "https://xpto.www.bar.com", "Access-Control-Request-Method", "GET"),
			CORSPreflight, hdr("Access-Control-Allow-Origin", "https://xpto.www.bar.com", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Allow-Methods", "GET, OPTIONS", "Access-Control-Allow-Headers", "x-header-1, x-header-2",
				"Access-Control-Expose-Headers", "x-header-3, x-header-4", "Access-Control-Max-Age", "3600")},
		{"preflight, other origin", conformanceCORS(), "OPTIONS",
			hdr("Origin", "https://foobar.com", "Access-Control-Request-Method", "GET"), CORSPreflight, nil},
		{"preflight, other scheme", conformanceCORS(), "OPTIONS",
			hdr("Origin", "http://www.foo.com", "Access-Control-Request-Method", "GET"), CORSPreflight, nil},
		{"preflight, default port written", conformanceCORS(), "OPTIONS",
			hdr("Origin", "https://www.foo.com:443", "Access-Control-Request-Method", "GET"), CORSPreflight,
			hdr("Access-Control-Allow-Origin", "https://www.foo.com:443", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Allow-Methods", "GET, OPTIONS", "Access-Control-Allow-Headers", "x-header-1, x-header-2",
				"Access-Control-Expose-Headers", "x-header-3, x-header-4", "Access-Control-Max-Age", "3600")},
		{"preflight, wildcards with credentials echo the request", wildcard, "OPTIONS",
			hdr("Origin", "https://other.foo.com", "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-a"),
			CORSPreflight, hdr("Access-Control-Allow-Origin", "https://other.foo.com", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "x-a", "Access-Control-Max-Age", "5")},
		{"actual request", conformanceCORS(), "GET", hdr("Origin", "https://www.bar.com"), Routed,
			hdr("Access-Control-Allow-Origin", "https://www.bar.com", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Expose-Headers", "x-header-3, x-header-4")},
		{"actual request, other origin", conformanceCORS(), "GET", hdr("Origin", "https://foobar.com"), Routed, nil},
		{"OPTIONS without a requested method is not a preflight", conformanceCORS(), "OPTIONS",
			hdr("Origin", "https://www.foo.com"), Routed,
			hdr("Access-Control-Allow-Origin", "https://www.foo.com", "Access-Control-Allow-Credentials", "true",
				"Access-Control-Expose-Headers", "x-header-3, x-header-4")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := oneRoute(ir.Route{Filters: []ir.Filter{{Type: "CORS", CORS: tt.cors}}, Action: ir.Action{Backends: backends("app/svc:80")}})
			res := Evaluate(model, Request{Host: "a", Port: 80, Method: tt.method, Headers: tt.headers})
			if res.Outcome != tt.outcome {
				t.Errorf("outcome = %s, want %s", res.Outcome, tt.outcome)
			}
			if tt.outcome == CORSPreflight && res.Status != http.StatusNoContent {
				t.Errorf("status = %d, want 204", res.Status)
			}
			if len(res.CORSHeaders) != len(tt.want) {
				t.Errorf("headers = %v, want %v", res.CORSHeaders, tt.want)
			}
			for k := range tt.want {
				if res.CORSHeaders.Get(k) != tt.want.Get(k) {
					t.Errorf("%s = %q, want %q", k, res.CORSHeaders.Get(k), tt.want.Get(k))
				}
			}
		})
	}
}

// TestForwardingEffects checks mirrors, backend filters, external auth and
// the reported policies.
func TestForwardingEffects(t *testing.T) {
	bs := backends("app/a:80", "app/b:80")
	bs[1].Filters = []ir.Filter{
		{Type: "RequestHeaderModifier", RequestHeaderModifier: &ir.HeaderModifier{Set: []ir.Header{{Name: "X-Backend", Value: "b"}}}},
		{Type: "RequestMirror", RequestMirror: &ir.RequestMirror{Cluster: "app/b-shadow:80", Numerator: 1, Denominator: 2}},
	}
	retry := &ir.Retry{Codes: []int{500}, Attempts: 3}
	route := ir.Route{
		Filters: []ir.Filter{
			{Type: "RequestMirror", RequestMirror: &ir.RequestMirror{Cluster: "app/shadow:80", Numerator: 100, Denominator: 100}},
			{Type: "RequestMirror", RequestMirror: &ir.RequestMirror{Invalid: "BackendNotFound", Numerator: 100, Denominator: 100}},
			{Type: "ExternalAuth", ExternalAuth: &ir.ExternalAuth{Protocol: "HTTP", Cluster: "app/auth:80"}},
		},
		Action: ir.Action{Backends: bs, Retry: retry},
	}
	toA := Evaluate(oneRoute(route), Request{Host: "a", Port: 80, Seed: 0})
	toB := Evaluate(oneRoute(route), Request{Host: "a", Port: 80, Seed: 1})
	if toA.Backend.Cluster != "app/a:80" || toA.Forwarded.Headers.Get("X-Backend") != "" || len(toA.Mirrors) != 1 {
		t.Errorf("to a: backend %v, X-Backend %q, mirrors %v", toA.Backend, toA.Forwarded.Headers.Get("X-Backend"), toA.Mirrors)
	}
	if toB.Backend.Cluster != "app/b:80" || toB.Forwarded.Headers.Get("X-Backend") != "b" || len(toB.Mirrors) != 2 ||
		toB.Mirrors[1] != (Mirror{Cluster: "app/b-shadow:80", Numerator: 1, Denominator: 2}) {
		t.Errorf("to b: backend %v, X-Backend %q, mirrors %v", toB.Backend, toB.Forwarded.Headers.Get("X-Backend"), toB.Mirrors)
	}
	if toA.Retry != retry || toA.ExternalAuth == nil {
		t.Errorf("retry %v, external auth %v: want both reported", toA.Retry, toA.ExternalAuth)
	}
	route.Filters[2].ExternalAuth = &ir.ExternalAuth{Protocol: "GRPC", Invalid: "BackendNotFound"}
	denied := Evaluate(oneRoute(route), Request{Host: "a", Port: 80})
	if denied.Outcome != AuthDenied || denied.Status != 403 || denied.Mirrors != nil {
		t.Errorf("invalid auth service: %s %d mirrors %v, want AuthDenied 403 and nothing mirrored", denied.Outcome, denied.Status, denied.Mirrors)
	}
}
