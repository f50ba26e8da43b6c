package load

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/scheme"
)

func TestCatalogNoMatch(t *testing.T) {
	c := newCatalog(scheme.New())
	for _, tc := range []struct {
		apiVersion, kind string
		want             string // "" means no finding
		severity         diag.Severity
	}{
		{"gateway.networking.k8s.io/v1", "HTTPRoute", "", 0},
		{"gateway.networking.k8s.io/v1beta1", "HTTPRoute", "", 0},
		{"v1", "Service", "", 0},
		{"v1", "Pod", "", 0}, // served, merely not read by gwsim
		{"apps/v1", "Deploymnet", "", 0},
		{"multicluster.x-k8s.io/v1beta1", "ServiceImport", "", 0},
		{"example.com/v1", "HttpRoute", "", 0},
		{"gateway.networking.k8s.io/v1", "HttpRoute", "did you mean kind: HTTPRoute?", diag.Error},
		{"gateway.networking.k8s.io/v1", "HTTPRoutes", "did you mean kind: HTTPRoute?", diag.Error},
		{"gateway.networking.k8s.io/v1", "Gatway", "did you mean kind: Gateway?", diag.Error},
		{"gateway.networking.k8s.io/v1", "gatewayclasses", "did you mean kind: GatewayClass?", diag.Error},
		{"gateway.networking.k8s.io/v9", "HTTPRoute", "did you mean apiVersion: gateway.networking.k8s.io/v1?", diag.Error},
		{"gateway.networking.k8s.io/V1BETA1", "HTTPRoute", "did you mean apiVersion: gateway.networking.k8s.io/v1beta1?", diag.Error},
		{"v1", "HTTPRoute", "did you mean apiVersion: gateway.networking.k8s.io/v1?", diag.Error},
		{"v1", "Servic", "did you mean kind: Service?", diag.Error},
		{"gateway.networking.k8s.io/v1", "Zebra", "serves the kinds BackendTLSPolicy,", diag.Error},
		{"networking.x-k8s.io/v1alpha1", "HTTPRoute", "successor is gateway.networking.k8s.io (HTTPRoute is served as gateway.networking.k8s.io/v1)", diag.Warning},
	} {
		gvk := schema.FromAPIVersionAndKind(tc.apiVersion, tc.kind)
		f, ok := c.noMatch(gvk, diag.ObjectRef{Kind: tc.kind, Name: "x"}, diag.Source{}, origin{})
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s %s: unexpected finding %q", tc.apiVersion, tc.kind, f.Message)
		case tc.want != "" && !ok:
			t.Errorf("%s %s: no finding, want one saying %q", tc.apiVersion, tc.kind, tc.want)
		case ok && (!strings.Contains(f.Message, tc.want) || f.Severity != tc.severity):
			t.Errorf("%s %s: got %s %q, want %s with %q", tc.apiVersion, tc.kind, f.Severity, f.Message, tc.severity, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"gateway", "gatway", 3, 1},
		{"gatway", "gateway", 3, 1},
		{"httproute", "httproute", 3, 0},
		{"abc", "xyz", 3, 3},
		{"grpcroute", "httproute", 3, 3},
		{"", "ab", 3, 2},
	} {
		if got := editDistance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}

// TestFieldValidation checks the two settings of Options.Fields on an
// unknown field of a Gateway API kind and of a core kind, and a key given
// twice: strict refuses each object (an error, left out), warn keeps it
// with a warning.
func TestFieldValidation(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - timeoutz: {request: 1s}
---
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {ports: [{port: 80}],
  selctor: {app: s}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {a: "1"}
data: {b: "2"}
`})
	for _, tc := range []struct {
		fields   FieldValidation
		objects  int
		severity diag.Severity
	}{
		{FieldsStrict, 0, diag.Error},
		{FieldsWarn, 3, diag.Warning},
	} {
		res := Load(Options{Paths: []string{dir}, Fields: tc.fields})
		if len(res.Objects) != tc.objects || len(res.Errors) > 0 {
			t.Errorf("fields %d: %d objects, %d errors; want %d objects", tc.fields, len(res.Objects), len(res.Errors), tc.objects)
		}
		if len(res.Findings) != 3 {
			t.Fatalf("fields %d: findings %v, want 3", tc.fields, res.Findings)
		}
		for _, f := range res.Findings {
			if f.Severity != tc.severity || tc.fields == FieldsStrict && (f.Reason != diag.ReasonFieldValidation || !strings.HasPrefix(f.Message, "strict decoding error: ")) {
				t.Errorf("fields %d: %s %s %q", tc.fields, f.Severity, f.Reason, f.Message)
			}
		}
	}
}

// TestEnvoyGatewayConfig: Envoy Gateway's configuration (kind EnvoyGateway)
// in a directory is skipped and listed, as Helm values are; named with -f
// it stays an error, which says what the document is instead of asking
// for CRDs.
func TestEnvoyGatewayConfig(t *testing.T) {
	const config = "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyGateway\ngateway:\n  controllerName: gateway.envoyproxy.io/gatewayclass-controller\n" +
		"extensionApis:\n  enableBackend: true\n"
	dir := writeFiles(t, map[string]string{"standalone/envoy-gateway.yaml": config})
	got := summarize(dir, Load(Options{Paths: []string{filepath.Join(dir, "standalone")}}))
	want := summary{Findings: []string{"info: skipped 1 YAML document found in directories that is not a Kubernetes object (Helm values, application config, CI workflows and SOPS-encrypted files are never applied as manifests): " +
		"Envoy Gateway's own configuration (kind EnvoyGateway, read from its config file, never applied) (standalone/envoy-gateway.yaml:1)"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
	got = summarize(dir, Load(Options{Paths: []string{filepath.Join(dir, "standalone", "envoy-gateway.yaml")}}))
	if len(got.Findings) != 1 || !strings.Contains(got.Findings[0], "standalone/envoy-gateway.yaml:2: error: ") ||
		!strings.Contains(got.Findings[0], "EnvoyGateway is Envoy Gateway's own configuration") || strings.Contains(got.Findings[0], "ensure CRDs") {
		t.Errorf("named with -f: findings %q, want one error at the kind saying what the document is", got.Findings)
	}
}
