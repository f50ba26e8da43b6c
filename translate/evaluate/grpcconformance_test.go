package evaluate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/translatetest"
)

const (
	conformanceNS = "gateway-conformance-infra"
	echoService   = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho"
)

// grpcCase is one request of an upstream conformance test: the gRPC method
// called (Echo, EchoTwo, EchoThree of the echo service), the authority and
// metadata, and the backend Service the test expects, or the gRPC status
// when it expects no backend.
type grpcCase struct {
	method    string
	authority string
	metadata  map[string]string
	backend   string
	status    string
}

// TestGRPCConformance runs the requests of the upstream GRPCRoute
// conformance tests (sigs.k8s.io/gateway-api/conformance@v1.6.3, tests/*.go)
// through the IR gwsim builds from the same manifests (copied under
// testdata/grpc-conformance), and checks that every route is accepted, as
// GatewayAndRoutesMustBeAccepted does, and that each request reaches the
// backend the upstream test expects.
func TestGRPCConformance(t *testing.T) {
	tests := []struct {
		name     string // the upstream ConformanceTest's ShortName
		manifest string
		gateway  string
		cases    []grpcCase
	}{
		{"GRPCExactMethodMatching", "grpcroute-exact-method-matching.yaml", "same-namespace", []grpcCase{
			{method: "Echo", backend: "grpc-infra-backend-v1"},
			{method: "EchoTwo", backend: "grpc-infra-backend-v2"},
			{method: "EchoThree", status: "UNIMPLEMENTED"},
		}},
		{"GRPCRouteHeaderMatching", "grpcroute-header-matching.yaml", "same-namespace", []grpcCase{
			{method: "Echo", metadata: map[string]string{"Version": "one"}, backend: "grpc-infra-backend-v1"},
			{method: "Echo", metadata: map[string]string{"Version": "two"}, backend: "grpc-infra-backend-v2"},
			{method: "Echo", metadata: map[string]string{"Version": "two", "Color": "orange"}, backend: "grpc-infra-backend-v1"},
			{method: "Echo", metadata: map[string]string{"Version": "two", "Color": "blue"}, backend: "grpc-infra-backend-v2"},
			{method: "Echo", metadata: map[string]string{"Color": "orange"}, status: "UNIMPLEMENTED"},
			{method: "Echo", metadata: map[string]string{"Some-Other-Header": "one"}, status: "UNIMPLEMENTED"},
			{method: "Echo", metadata: map[string]string{"Color": "blue"}, backend: "grpc-infra-backend-v1"},
			{method: "Echo", metadata: map[string]string{"Color": "green"}, backend: "grpc-infra-backend-v1"},
			{method: "Echo", metadata: map[string]string{"Color": "red"}, backend: "grpc-infra-backend-v2"},
			{method: "Echo", metadata: map[string]string{"Color": "yellow"}, backend: "grpc-infra-backend-v2"},
			{method: "Echo", metadata: map[string]string{"Color": "purple"}, status: "UNIMPLEMENTED"},
		}},
		{"GRPCRouteListenerHostnameMatching", "grpcroute-listener-hostname-matching.yaml", "grpcroute-listener-hostname-matching", []grpcCase{
			{method: "Echo", authority: "bar.com", backend: "grpc-infra-backend-v1"},
			{method: "Echo", authority: "foo.bar.com", backend: "grpc-infra-backend-v2"},
			{method: "Echo", authority: "baz.bar.com", backend: "grpc-infra-backend-v3"},
			{method: "Echo", authority: "boo.bar.com", backend: "grpc-infra-backend-v3"},
			{method: "Echo", authority: "multiple.prefixes.bar.com", backend: "grpc-infra-backend-v3"},
			{method: "Echo", authority: "multiple.prefixes.foo.com", backend: "grpc-infra-backend-v3"},
			{method: "Echo", authority: "foo.com", status: "UNIMPLEMENTED"},
			{method: "Echo", authority: "no.matching.host", status: "UNIMPLEMENTED"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadInput(t, "base.yaml", tt.manifest)
			out := translate.Translate(in, translate.Options{})
			for _, r := range in.GRPCRoutes {
				if len(out.Status.Routes[routeRef(r)]) == 0 {
					t.Errorf("GRPCRoute %s has no parent status", r.Name)
				}
				for _, p := range out.Status.Routes[routeRef(r)] {
					for _, c := range p.Conditions {
						if c.Status != metav1.ConditionTrue {
							t.Errorf("GRPCRoute %s: %s=%s (%s): %s", r.Name, c.Type, c.Status, c.Reason, c.Message)
						}
					}
				}
			}
			for i, c := range tt.cases {
				authority := c.authority
				if authority == "" {
					authority = "example.com"
				}
				req := evaluate.GRPCCall(authority, 80, echoService, c.method, c.metadata)
				req.Gateway = conformanceNS + "/" + tt.gateway
				res := evaluate.Evaluate(out.IR, req)
				got, status := "", evaluate.GRPCStatus(res)
				if res.Backend != nil {
					got = strings.TrimSuffix(strings.TrimPrefix(res.Backend.Cluster, conformanceNS+"/"), ":8080")
				}
				want := c.status
				if c.backend != "" {
					want = "OK"
				}
				if got != c.backend || status != want {
					t.Errorf("case %d (%s %s %v): got backend %q status %s (%s), want backend %q status %s",
						i, c.authority, c.method, c.metadata, got, status, res.Outcome, c.backend, want)
				}
			}
		})
	}
}

func routeRef(r *gwv1.GRPCRoute) diag.ObjectRef {
	return diag.ObjectRef{Kind: "GRPCRoute", Namespace: r.Namespace, Name: r.Name}
}

// loadInput decodes the testdata manifests into a translate.Input.
func loadInput(t *testing.T, files ...string) translate.Input {
	t.Helper()
	var docs []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "grpc-conformance", f))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, strings.TrimRight(string(b), "\n"))
	}
	in, _ := translatetest.Decode(t, strings.Join(files, "+"), strings.Join(docs, "\n---\n"))
	return in
}
