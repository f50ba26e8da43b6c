package translate

import (
	"reflect"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/translate/ir"
)

// defaultedGRPCMatch is m with the CRD defaults (method and header match
// types Exact), as a GRPCRoute the loader reads has them.
func defaultedGRPCMatch(t *testing.T, m gwv1.GRPCRouteMatch) gwv1.GRPCRouteMatch {
	t.Helper()
	route := &gwv1.GRPCRoute{Spec: gwv1.GRPCRouteSpec{Rules: []gwv1.GRPCRouteRule{{Matches: []gwv1.GRPCRouteMatch{*m.DeepCopy()}}}}}
	return defaulttest.Default(t, route).Spec.Rules[0].Matches[0]
}

func methodMatch(typ gwv1.GRPCMethodMatchType, service, method string) *gwv1.GRPCMethodMatch {
	m := &gwv1.GRPCMethodMatch{}
	if typ != "" {
		m.Type = &typ
	}
	if service != "" {
		m.Service = &service
	}
	if method != "" {
		m.Method = &method
	}
	return m
}

// TestGRPCMatch checks each row of grpcMatch's mapping from a
// GRPCRouteMatch to a path and header match, and the key precedence ranks by.
func TestGRPCMatch(t *testing.T) {
	exact, regex := gwv1.GRPCMethodMatchExact, gwv1.GRPCMethodMatchRegularExpression
	tests := []struct {
		name     string
		in       gwv1.GRPCRouteMatch
		pathType string
		path     string
		key      grpcMethodKey
	}{
		{"no method match: any call", gwv1.GRPCRouteMatch{}, "PathPrefix", "/", grpcMethodKey{}},
		{"exact service and method", gwv1.GRPCRouteMatch{Method: methodMatch(exact, "pkg.Svc", "Get")}, "Exact", "/pkg.Svc/Get", grpcMethodKey{"pkg.Svc", "Get"}},
		{"the CRD defaults type to Exact", gwv1.GRPCRouteMatch{Method: methodMatch("", "pkg.Svc", "Get")}, "Exact", "/pkg.Svc/Get", grpcMethodKey{"pkg.Svc", "Get"}},
		{"exact service only: every method", gwv1.GRPCRouteMatch{Method: methodMatch(exact, "pkg.Svc", "")}, "PathPrefix", "/pkg.Svc", grpcMethodKey{"pkg.Svc", ""}},
		{"exact method only: any service", gwv1.GRPCRouteMatch{Method: methodMatch(exact, "", "Get")}, "RegularExpression", "/[^/]+/Get", grpcMethodKey{"", "Get"}},
		{"regex service and method", gwv1.GRPCRouteMatch{Method: methodMatch(regex, `pkg\.v[0-9]+\.Svc`, "Get|List")}, "RegularExpression", `/(?:pkg\.v[0-9]+\.Svc)/(?:Get|List)`, grpcMethodKey{`pkg\.v[0-9]+\.Svc`, "Get|List"}},
		{"regex service only", gwv1.GRPCRouteMatch{Method: methodMatch(regex, `pkg\..*`, "")}, "RegularExpression", `/(?:pkg\..*)/[^/]+`, grpcMethodKey{`pkg\..*`, ""}},
		{"regex method only", gwv1.GRPCRouteMatch{Method: methodMatch(regex, "", "Get.*")}, "RegularExpression", `/[^/]+/(?:Get.*)`, grpcMethodKey{"", "Get.*"}},
	}
	for _, tt := range tests {
		got, key, problem := grpcMatch(defaultedGRPCMatch(t, tt.in))
		if problem != "" {
			t.Errorf("%s: unexpected problem %q", tt.name, problem)
			continue
		}
		if got.PathType != tt.pathType || got.Path != tt.path || key != tt.key {
			t.Errorf("%s: got %s %q key %+v, want %s %q key %+v", tt.name, got.PathType, got.Path, key, tt.pathType, tt.path, tt.key)
		}
	}
}

func TestGRPCMatchHeaders(t *testing.T) {
	re := gwv1.GRPCHeaderMatchRegularExpression
	got, _, problem := grpcMatch(defaultedGRPCMatch(t, gwv1.GRPCRouteMatch{Headers: []gwv1.GRPCHeaderMatch{
		{Name: "version", Value: "2"},
		{Name: "env", Type: &re, Value: "prod|canary"},
	}}))
	want := []ir.ValueMatch{{Name: "version", Type: "Exact", Value: "2"}, {Name: "env", Type: "RegularExpression", Value: "prod|canary"}}
	if problem != "" || !reflect.DeepEqual(got.Headers, want) {
		t.Errorf("headers: got %+v (%q), want %+v", got.Headers, problem, want)
	}
}

// TestGRPCMatchInvalid checks that matches the CRD rejects are reported:
// they must match nothing rather than more than written.
func TestGRPCMatchInvalid(t *testing.T) {
	bogusHeader := gwv1.GRPCHeaderMatchType("Prefix")
	tests := []struct {
		name string
		in   gwv1.GRPCRouteMatch
		want string
	}{
		{"neither service nor method", gwv1.GRPCRouteMatch{Method: methodMatch("Exact", "", "")}, "needs a service or a method"},
		{"slash in exact service", gwv1.GRPCRouteMatch{Method: methodMatch("Exact", "a/b", "")}, "not a valid gRPC service name"},
		{"dot in exact method", gwv1.GRPCRouteMatch{Method: methodMatch("Exact", "", "a.b")}, "not a valid gRPC method name"},
		{"bad regex", gwv1.GRPCRouteMatch{Method: methodMatch("RegularExpression", "(", "")}, "not a valid RE2"},
		{"unknown method type", gwv1.GRPCRouteMatch{Method: methodMatch("Prefix", "a", "")}, `method match type "Prefix"`},
		{"unknown header type", gwv1.GRPCRouteMatch{Headers: []gwv1.GRPCHeaderMatch{{Name: "a", Type: &bogusHeader, Value: "b"}}}, `header match type "Prefix"`},
	}
	for _, tt := range tests {
		if _, _, problem := grpcMatch(tt.in); !strings.Contains(problem, tt.want) {
			t.Errorf("%s: problem %q, want it to mention %q", tt.name, problem, tt.want)
		}
	}
}
