package evaluate

import (
	"net/http"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// TestEvaluateGRPC runs gRPC calls through routes shaped as the translator
// shapes GRPCRoute matches (see translate/rule_grpcmatch.go), in precedence
// order: an exact method, every method of a service, one method of any
// service with a header, then everything.
func TestEvaluateGRPC(t *testing.T) {
	route := func(cluster, pathType, path string, headers ...ir.ValueMatch) ir.Route {
		return ir.Route{
			Match:  ir.Match{PathType: pathType, Path: path, Headers: headers},
			Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: cluster, Weight: 1}}},
			Origin: ir.Origin{Kind: "GRPCRoute", Namespace: "ns", Name: cluster},
		}
	}
	unavailable := ir.Route{
		Match:  ir.Match{PathType: "PathPrefix", Path: "/pkg.Broken"},
		Action: ir.Action{DirectResponse: &ir.DirectResponse{Status: http.StatusServiceUnavailable}},
	}
	model := ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{{
		Port:      80,
		Listeners: []ir.GatewayListener{{Name: "grpc", Protocol: "HTTP", Hostname: "grpc.example.com"}},
		VirtualHosts: []ir.VirtualHost{{Hostname: "grpc.example.com", Listener: "grpc", Routes: []ir.Route{
			route("get", "Exact", "/pkg.Svc/Get"),
			route("svc", "PathPrefix", "/pkg.Svc"),
			unavailable,
			route("check", "RegularExpression", "/[^/]+/Check", ir.ValueMatch{Name: "x-canary", Type: "Exact", Value: "true"}),
			route("any", "PathPrefix", "/"),
		}}},
	}}}}}
	tests := []struct {
		name, host, service, method string
		metadata                    map[string]string
		cluster, status             string
	}{
		{"exact method", "grpc.example.com", "pkg.Svc", "Get", nil, "get", "OK"},
		{"other method of the service", "grpc.example.com", "pkg.Svc", "List", nil, "svc", "OK"},
		{"service prefix is a whole segment", "grpc.example.com", "pkg.SvcV2", "Get", nil, "any", "OK"},
		{"method of any service, header set", "grpc.example.com", "other.Health", "Check", map[string]string{"x-canary": "true"}, "check", "OK"},
		{"metadata names are case-insensitive", "grpc.example.com", "other.Health", "Check", map[string]string{"X-Canary": "true"}, "check", "OK"},
		{"method of any service, header missing", "grpc.example.com", "other.Health", "Check", nil, "any", "OK"},
		{"no usable backend", "grpc.example.com", "pkg.Broken", "Do", nil, "", "UNAVAILABLE"},
		{"no listener for the authority", "other.example.com", "pkg.Svc", "Get", nil, "", "UNIMPLEMENTED"},
	}
	for _, tt := range tests {
		req := GRPCCall(tt.host, 80, tt.service, tt.method, tt.metadata)
		if req.Method != http.MethodPost || req.Headers.Get("content-type") != "application/grpc" {
			t.Fatalf("GRPCCall: %s with content-type %q, want a POST with application/grpc", req.Method, req.Headers.Get("content-type"))
		}
		res := Evaluate(model, req)
		got := ""
		if res.Backend != nil {
			got = res.Backend.Cluster
		}
		if got != tt.cluster || GRPCStatus(res) != tt.status {
			t.Errorf("%s: got %q %s (%s), want %q %s", tt.name, got, GRPCStatus(res), res.Outcome, tt.cluster, tt.status)
		}
	}
}

func TestGRPCStatus(t *testing.T) {
	tests := []struct {
		res  Result
		want string
	}{
		{Result{Outcome: Routed, Status: 200}, "OK"},
		{Result{Outcome: RouteNotFound, Status: 404}, "UNIMPLEMENTED"},
		{Result{Outcome: NoListener, Status: 404}, "UNIMPLEMENTED"},
		{Result{Outcome: DirectResponse, Status: 503}, "UNAVAILABLE"},
		{Result{Outcome: DirectResponse, Status: 500}, "UNKNOWN"},
		{Result{Outcome: Redirected, Status: 302}, "UNKNOWN"},
		{Result{Outcome: NoGateway}, "UNAVAILABLE"},
	}
	for _, tt := range tests {
		if got := GRPCStatus(tt.res); got != tt.want {
			t.Errorf("GRPCStatus(%s %d) = %s, want %s", tt.res.Outcome, tt.res.Status, got, tt.want)
		}
	}
}
