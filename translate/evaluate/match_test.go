package evaluate

import (
	"net/http"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestPathMatches(t *testing.T) {
	tests := []struct {
		typ, value, path string
		want             bool
	}{
		{"PathPrefix", "/foo", "/foo", true},
		{"PathPrefix", "/foo", "/foo/", true},
		{"PathPrefix", "/foo", "/foo/bar", true},
		{"PathPrefix", "/foo", "/foobar", false},
		{"PathPrefix", "/foo/", "/foo", true},
		{"PathPrefix", "/", "/anything", true},
		{"Exact", "/foo", "/foo", true},
		{"Exact", "/foo", "/foo/", false},
		{"RegularExpression", "/v[0-9]+/.*", "/v2/x", true},
		{"RegularExpression", "/v[0-9]+", "/v2/x", false},
	}
	for _, tt := range tests {
		if got := pathMatches(tt.typ, tt.value, tt.path); got != tt.want {
			t.Errorf("pathMatches(%s %q, %q) = %v, want %v", tt.typ, tt.value, tt.path, got, tt.want)
		}
	}
}

// The cases of the upstream conformance test HTTPRouteRewritePath.
func TestRewritePath(t *testing.T) {
	tests := []struct {
		match, typ, value, path, want string
	}{
		{"/prefix/one", "ReplacePrefixMatch", "/one", "/prefix/one/two", "/one/two"},
		{"/strip-prefix", "ReplacePrefixMatch", "/", "/strip-prefix/three", "/three"},
		{"/strip-prefix", "ReplacePrefixMatch", "/", "/strip-prefix", "/"},
		{"/full/one", "ReplaceFullPath", "/one", "/full/one/two", "/one"},
		{"/q", "ReplaceFullPath", "/z", "/q?a=1", "/z?a=1"},
	}
	for _, tt := range tests {
		m := ir.Match{PathType: "PathPrefix", Path: tt.match}
		if got := rewritePath(m, tt.typ, tt.value, tt.path); got != tt.want {
			t.Errorf("rewritePath(%s %s→%s, %q) = %q, want %q", tt.match, tt.typ, tt.value, tt.path, got, tt.want)
		}
	}
}

func TestEvaluateListenerIsolationAndPrecedence(t *testing.T) {
	route := func(name, path string) ir.Route {
		return ir.Route{
			Match:  ir.Match{PathType: "PathPrefix", Path: path},
			Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: name, Weight: 1}}},
			Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "ns", Name: name},
		}
	}
	model := ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{{
		Port: 80,
		Listeners: []ir.GatewayListener{
			{Name: "exact", Hostname: "a.example.com"}, {Name: "wild", Hostname: "*.example.com"},
		},
		VirtualHosts: []ir.VirtualHost{
			{Hostname: "a.example.com", Listener: "exact", Routes: []ir.Route{route("a-api", "/api"), route("a-root", "/")}},
			{Hostname: "*.example.com", Listener: "wild", Routes: []ir.Route{route("wild", "/")}},
		},
	}}}}}
	tests := []struct {
		host, path string
		outcome    Outcome
		cluster    string
	}{
		{"a.example.com", "/api/x", Routed, "a-api"},
		{"a.example.com", "/apix", Routed, "a-root"},
		{"b.example.com", "/", Routed, "wild"},
		{"example.com", "/", NoListener, ""},
	}
	for _, tt := range tests {
		res := Evaluate(model, Request{Host: tt.host, Port: 80, Path: tt.path, Headers: http.Header{}})
		got := ""
		if res.Backend != nil {
			got = res.Backend.Cluster
		}
		if res.Outcome != tt.outcome || got != tt.cluster {
			t.Errorf("%s%s: got %s %q, want %s %q", tt.host, tt.path, res.Outcome, got, tt.outcome, tt.cluster)
		}
	}
	if res := Evaluate(model, Request{Host: "a.example.com", Port: 8080}); res.Outcome != NoGateway {
		t.Errorf("port 8080: got %s, want NoGateway", res.Outcome)
	}
}

func TestRedirectLocation(t *testing.T) {
	m := ir.Match{PathType: "PathPrefix", Path: "/"}
	tests := []struct {
		r    ir.Redirect
		want string
	}{
		{ir.Redirect{Scheme: "https", StatusCode: 301}, "https://example.com/p"},
		{ir.Redirect{Hostname: "other.org", StatusCode: 302}, "http://other.org:8080/p"},
		{ir.Redirect{Port: 8443, Scheme: "https"}, "https://example.com:8443/p"},
		{ir.Redirect{Port: 80}, "http://example.com/p"},
	}
	for _, tt := range tests {
		if got := location(&tt.r, m, Request{Scheme: "http", Host: "example.com", Path: "/p"}, 8080); got != tt.want {
			t.Errorf("location(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}
