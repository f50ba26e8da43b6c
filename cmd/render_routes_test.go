package cmd

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestFormatMatch(t *testing.T) {
	tests := []struct {
		name string
		in   ir.Match
		want string
	}{
		{"empty matches anything", ir.Match{}, "*"},
		{"prefix", ir.Match{PathType: "PathPrefix", Path: "/"}, "PathPrefix /"},
		{"everything", ir.Match{
			PathType: "PathPrefix", Path: "/api", Method: "GET",
			Headers:     []ir.ValueMatch{{Name: "x-a", Type: "Exact", Value: "1"}, {Name: "x-b", Type: "RegularExpression", Value: "v[0-9]"}},
			QueryParams: []ir.ValueMatch{{Name: "debug", Type: "Exact", Value: "true"}},
		}, "PathPrefix /api method=GET headers=x-a=1,x-b~v[0-9] query=debug=true"},
		{"method only", ir.Match{Method: "POST"}, "method=POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatMatch(tt.in); got != tt.want {
				t.Errorf("formatMatch() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatAction(t *testing.T) {
	tests := []struct {
		name string
		in   ir.Action
		want string
	}{
		{"no action", ir.Action{}, "-"},
		{"weighted backends", ir.Action{Backends: []ir.WeightedBackend{
			{Cluster: "ns/svc:80", Weight: 1},
			{Cluster: "ns/other:80", Weight: 0},
		}}, "ns/svc:80(w=1), ns/other:80(w=0,unused)"},
		{"invalid backend keeps its weight and name", ir.Action{Backends: []ir.WeightedBackend{
			{Cluster: "ns/svc:80", Weight: 3},
			{Weight: 1, Invalid: "BackendNotFound", Ref: "ns/recs:8080"},
		}}, "ns/svc:80(w=3), ns/recs:8080(w=1,invalid: BackendNotFound)"},
		{"direct response", ir.Action{DirectResponse: &ir.DirectResponse{Status: 500, Reason: "BackendNotFound"}},
			"500 (invalid: BackendNotFound)"},
		{"direct response without reason", ir.Action{DirectResponse: &ir.DirectResponse{Status: 404}}, "404"},
		{"scheme redirect", ir.Action{Redirect: &ir.Redirect{Scheme: "https", StatusCode: 301}},
			"redirect 301 https://{host}{path}"},
		{"full redirect", ir.Action{Redirect: &ir.Redirect{
			Scheme: "https", Hostname: "example.com", Port: 8443, PathType: "ReplaceFullPath", Path: "/new", StatusCode: 302,
		}}, "redirect 302 https://example.com:8443/new"},
		{"prefix redirect", ir.Action{Redirect: &ir.Redirect{PathType: "ReplacePrefixMatch", Path: "/v2", StatusCode: 302}},
			"redirect 302 {scheme}://{host}/v2 (prefix)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatAction(tt.in); got != tt.want {
				t.Errorf("formatAction() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatFilters(t *testing.T) {
	tests := []struct {
		name string
		in   []ir.Filter
		want string
	}{
		{"none", nil, "-"},
		{"header modifier", []ir.Filter{{
			Type: "RequestHeaderModifier",
			RequestHeaderModifier: &ir.HeaderModifier{
				Set: []ir.Header{{Name: "x-a", Value: "1"}}, Add: []ir.Header{{Name: "x-b", Value: "2"}}, Remove: []string{"x-c"},
			},
		}}, "RequestHeaderModifier(set x-a=1 add x-b=2 remove x-c)"},
		{"in order", []ir.Filter{
			{Type: "URLRewrite", URLRewrite: &ir.URLRewrite{Hostname: "internal", PathType: "ReplacePrefixMatch", Path: "/v2"}},
			{Type: "ResponseHeaderModifier", ResponseHeaderModifier: &ir.HeaderModifier{Remove: []string{"server"}}},
			{Type: "CORS"},
		}, "URLRewrite(host=internal prefix=/v2), ResponseHeaderModifier(remove server), CORS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatFilters(tt.in); got != tt.want {
				t.Errorf("formatFilters() = %q, want %q", got, tt.want)
			}
		})
	}
}

// sampleIR is one Gateway with two hostnames on port 80, routes in
// precedence order, and a redirect on 443.
func sampleIR() ir.IR {
	return ir.IR{Gateways: []ir.Gateway{{
		Name: "infra/gw", Class: "gwsim",
		Listeners: []ir.Listener{
			{Port: 80, Protocol: "HTTP", VirtualHosts: []ir.VirtualHost{
				{Hostname: "api.example.com", Routes: []ir.Route{
					{
						Match:  ir.Match{PathType: "PathPrefix", Path: "/v1", Method: "GET"},
						Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "apps/api:8080", Weight: 1}}},
						Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "api", Rule: 1},
					},
					{
						Match: ir.Match{PathType: "PathPrefix", Path: "/"},
						Action: ir.Action{DirectResponse: &ir.DirectResponse{Status: 500, Reason: "no valid backend with a weight above 0"},
							Backends: []ir.WeightedBackend{{Weight: 2, Invalid: "BackendNotFound", Ref: "apps/recs:8080"}}},
						Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "api", Rule: 0},
					},
				}},
			}},
			{Port: 443, Protocol: "HTTPS", VirtualHosts: []ir.VirtualHost{
				{Hostname: "*", Routes: []ir.Route{{
					Match:   ir.Match{PathType: "PathPrefix", Path: "/"},
					Filters: []ir.Filter{{Type: "RequestHeaderModifier", RequestHeaderModifier: &ir.HeaderModifier{Set: []ir.Header{{Name: "x-env", Value: "prod"}}}}},
					Action:  ir.Action{Backends: []ir.WeightedBackend{{Cluster: "apps/web:80", Weight: 9}, {Cluster: "apps/canary:80", Weight: 1}}},
					Origin:  ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "web", Rule: 0},
				}}},
			}},
		},
	}}}
}

func TestRenderRoutesText(t *testing.T) {
	tests := []struct {
		name string
		in   ir.IR
		f    format
		view routesView
		want string
	}{
		{"no routes", ir.IR{}, formatText, routesView{}, "No routes: no accepted Gateway has an attached route.\n"},
		{"nothing passes the filters", sampleIR(), formatText, routesView{Gateway: "infra/other"}, "No routes match the filters.\n"},
		{"table", sampleIR(), formatText, routesView{}, "" +
			"GATEWAY   PORT/PROTO  HOST             MATCH             ROUTE                 BACKENDS\n" +
			"infra/gw  80/HTTP     api.example.com  PathPrefix /v1 …  HTTPRoute apps/api#1  apps/api:8080\n" +
			"infra/gw  80/HTTP     api.example.com  PathPrefix /      HTTPRoute apps/api#0  500: apps/recs:8080 (invalid: BackendNot…\n" +
			"infra/gw  443/HTTPS   *                PathPrefix /      HTTPRoute apps/web#0  apps/web:80 w=9, apps/canary:80 w=1\n"},
		{"wide", sampleIR(), formatWide, routesView{}, "" +
			"GATEWAY   PORT/PROTO  LISTENER  HOST             MATCH                      ROUTE                 BACKENDS                                                                                             FILTERS\n" +
			"infra/gw  80/HTTP     -         api.example.com  PathPrefix /v1 method=GET  HTTPRoute apps/api#1  apps/api:8080(w=1)                                                                                   -\n" +
			"infra/gw  80/HTTP     -         api.example.com  PathPrefix /               HTTPRoute apps/api#0  500 (invalid: no valid backend with a weight above 0): apps/recs:8080(w=2,invalid: BackendNotFound)  -\n" +
			"infra/gw  443/HTTPS   -         *                PathPrefix /               HTTPRoute apps/web#0  apps/web:80(w=9), apps/canary:80(w=1)                                                                RequestHeaderModifier(set x-env=prod)\n"},
		{"no headers, one host", sampleIR(), formatText, routesView{NoHeaders: true, Host: "api.example.com"}, "" +
			"infra/gw  80/HTTP    api.example.com  PathPrefix /v1 …  HTTPRoute apps/api#1  apps/api:8080\n" +
			"infra/gw  80/HTTP    api.example.com  PathPrefix /      HTTPRoute apps/api#0  500: apps/recs:8080 (invalid: BackendNotF…\n" +
			"infra/gw  443/HTTPS  *                PathPrefix /      HTTPRoute apps/web#0  apps/web:80 w=9, apps/canary:80 w=1\n"},
		{"one route", sampleIR(), formatText, routesView{Route: "apps/web"}, "" +
			"GATEWAY   PORT/PROTO  HOST  MATCH         ROUTE                 BACKENDS\n" +
			"infra/gw  443/HTTPS   *     PathPrefix /  HTTPRoute apps/web#0  apps/web:80 w=9, apps/canary:80 w=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := renderRoutes(&buf, tt.f, tt.in, tt.view); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("renderRoutes() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderRoutesData(t *testing.T) {
	model := ir.IR{Gateways: []ir.Gateway{{Name: "ns/gw", Listeners: []ir.Listener{{
		Port: 80, Protocol: "HTTP", VirtualHosts: []ir.VirtualHost{{Hostname: "*", Routes: []ir.Route{{
			Match:  ir.Match{PathType: "Exact", Path: "/"},
			Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "ns/svc:80", Weight: 1}}},
			Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "ns", Name: "r"},
		}}}},
	}}}}}
	tests := []struct {
		name string
		f    format
		in   ir.IR
		want string
	}{
		{"yaml", formatYAML, model, `routes:
- action:
    backends:
    - cluster: ns/svc:80
      weight: 1
  gateway: ns/gw
  hostname: '*'
  match:
    path: /
    pathType: Exact
  origin:
    kind: HTTPRoute
    match: 0
    name: r
    namespace: ns
    rule: 0
  port: 80
  protocol: HTTP
`},
		{"empty json is an empty list", formatJSON, ir.IR{}, "{\n  \"routes\": []\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := renderRoutes(&buf, tt.f, tt.in, routesView{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("renderRoutes() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRouteRowsNameTheListenerSet checks that rows served by a
// ListenerSet's listener, HTTP or L4, say which ListenerSet they come from.
func TestRouteRowsNameTheListenerSet(t *testing.T) {
	origin := ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "r"}
	model := ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{{
		Port: 80, Protocol: "HTTP+TCP",
		Listeners: []ir.GatewayListener{
			{Name: "http", Protocol: "HTTP"},
			{Name: "apps/ls/http", Protocol: "HTTP", ListenerSet: "apps/ls"},
			{Name: "apps/ls/tcp", Protocol: "TCP", ListenerSet: "apps/ls"},
		},
		VirtualHosts: []ir.VirtualHost{
			{Hostname: "*", Listener: "apps/ls/http", Routes: []ir.Route{{Origin: origin}}},
			{Hostname: "*", Listener: "http", Routes: []ir.Route{{Origin: origin}}},
		},
		Forward: []ir.L4Route{{Listener: "apps/ls/tcp", Origin: ir.Origin{Kind: "TCPRoute", Namespace: "apps", Name: "t"}}},
	}}}}}
	var got []string
	for _, r := range routeRows(model) {
		got = append(got, r.gatewayCell())
	}
	want := []string{"infra/gw via ListenerSet apps/ls", "infra/gw", "infra/gw via ListenerSet apps/ls"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GATEWAY cells (-want +got):\n%s", diff)
	}
}
