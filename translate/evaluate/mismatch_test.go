package evaluate

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestMismatches(t *testing.T) {
	m := ir.Match{
		PathType: "PathPrefix", Path: "/api", Method: "POST",
		Headers:     []ir.ValueMatch{{Name: "X-Version", Type: "Exact", Value: "2"}, {Name: "Accept", Type: "RegularExpression", Value: "application/.*"}},
		QueryParams: []ir.ValueMatch{{Name: "debug", Type: "Exact", Value: "1"}},
	}
	tests := []struct {
		name    string
		path    string
		method  string
		headers http.Header
		want    []Mismatch
	}{
		{"every condition holds", "/api/x?debug=1", "POST", http.Header{"X-Version": {"2"}, "Accept": {"application/json"}}, nil},
		{"every condition fails", "/apis?debug=0", "GET", http.Header{"Accept": {"text/html"}}, []Mismatch{
			{Condition: CondPath, Type: "PathPrefix", Want: "/api", Got: "/apis"},
			{Condition: CondMethod, Want: "POST", Got: "GET"},
			{Condition: CondHeader, Name: "X-Version", Type: "Exact", Want: "2", Missing: true},
			{Condition: CondHeader, Name: "Accept", Type: "RegularExpression", Want: "application/.*", Got: "text/html"},
			{Condition: CondQueryParam, Name: "debug", Type: "Exact", Want: "1", Got: "0"},
		}},
		{"query parameter missing", "/api", "POST", http.Header{"X-Version": {"2"}, "Accept": {"application/json"}}, []Mismatch{
			{Condition: CondQueryParam, Name: "debug", Type: "Exact", Want: "1", Missing: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Method: tt.method, Path: tt.path, Headers: tt.headers}
			got := Mismatches(m, req)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Mismatches (-want +got):\n%s", diff)
			}
			if matches(m, req) != (len(got) == 0) {
				t.Errorf("matches = %v, but Mismatches lists %d", matches(m, req), len(got))
			}
		})
	}
}

// An HTTPS port picks its listener by SNI, then the virtual host by Host.
func TestSNIPicksTheListener(t *testing.T) {
	route := ir.Route{Match: ir.Match{PathType: "PathPrefix", Path: "/"}, Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "ns/a:80", Weight: 1}}}}
	model := ir.IR{Gateways: []ir.Gateway{{Name: "ns/gw", Listeners: []ir.Listener{{
		Port: 443, Protocol: "HTTPS",
		Listeners: []ir.GatewayListener{
			{Name: "admin", Protocol: "HTTPS", Hostname: "admin.example.com"},
			{Name: "wild", Protocol: "HTTPS", Hostname: "*.example.com"},
		},
		VirtualHosts: []ir.VirtualHost{
			{Hostname: "admin.example.com", Listener: "admin", Routes: []ir.Route{route}},
			{Hostname: "www.example.com", Listener: "wild", Routes: []ir.Route{route}},
		},
	}}}}}
	tests := []struct {
		name, host, sni string
		want            Outcome
		listener        string
	}{
		{"SNI from Host", "www.example.com", "", Routed, "wild"},
		{"SNI and Host agree", "admin.example.com", "admin.example.com", Routed, "admin"},
		{"SNI picks admin, Host belongs to another listener: misdirected", "www.example.com", "admin.example.com", Misdirected, "admin"},
		{"SNI picks wild, Host admin belongs to admin: misdirected", "admin.example.com", "www.example.com", Misdirected, "wild"},
		{"SNI and Host both covered by wild", "api.example.com", "www.example.com", RouteNotFound, "wild"},
		{"no listener covers the SNI", "www.example.com", "example.org", NoListener, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Evaluate(model, Request{Scheme: "https", Host: tt.host, Port: 443, SNI: tt.sni})
			if res.Outcome != tt.want || res.Listener != tt.listener {
				t.Errorf("outcome %s on listener %q, want %s on %q", res.Outcome, res.Listener, tt.want, tt.listener)
			}
		})
	}
}
