package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
)

// routesFile writes n HTTPRoutes, each with a few rules, into one file.
func routesFile(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `---
# Source: chart/templates/route-%d.yaml
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: route-%d
  namespace: ns-%d
  labels: {app: demo, tier: web}
spec:
  parentRefs:
  - name: gw
    namespace: infra
    sectionName: https
  hostnames: ["svc-%d.example.com"]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /api}
      headers: [{name: x-version, value: v2}]
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        set: [{name: x-route, value: route-%d}]
    backendRefs:
    - {name: api-v2, port: 8080, weight: 90}
    - {name: api-v1, port: 8080, weight: 10}
  - backendRefs:
    - {name: web, port: 80}
`, i, i, i%50, i, i)
	}
	p := filepath.Join(tb.TempDir(), "routes.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func BenchmarkLoad(b *testing.B) {
	p := routesFile(b, 3000)
	info, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ResetTimer()
	for b.Loop() {
		res := Load(Options{Paths: []string{p}})
		if len(res.Objects) != 3000 || len(res.Errors) != 0 || len(res.Findings) != 0 {
			b.Fatalf("got %d objects, %v, %v", len(res.Objects), res.Errors, res.Findings)
		}
	}
}

// TestLoadManyDocuments checks that a large file keeps every document, each
// with its own source, when decoded in parallel. The file is helm template
// output: each document's source is the template its # Source: comment
// names, without a line.
func TestLoadManyDocuments(t *testing.T) {
	const n = 2000
	p := routesFile(t, n)
	res := Load(Options{Paths: []string{p}})
	if len(res.Objects) != n || len(res.Errors) != 0 || len(res.Findings) != 0 {
		t.Fatalf("got %d objects, errors %v, findings %v", len(res.Objects), res.Errors, res.Findings)
	}
	for _, o := range res.Objects {
		var i int
		if _, err := fmt.Sscanf(o.GetName(), "route-%d", &i); err != nil {
			t.Fatal(err)
		}
		ref := objectRef(o)
		if got, want := res.Sources.Of(ref), (diag.Source{File: fmt.Sprintf("chart/templates/route-%d.yaml", i)}); got != want {
			t.Errorf("%s: source %v, want %v", ref, got, want)
		}
	}
}

// BenchmarkLoadKustomize loads 1,000 routes through a kustomize build:
// each built object finds its document in the file it came from, which
// must cost one pass over the file, not one per object.
func BenchmarkLoadKustomize(b *testing.B) {
	p := routesFile(b, 1000)
	dir := filepath.Dir(p)
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- routes.yaml\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res := Load(Options{Kustomize: []string{dir}})
		if len(res.Objects) != 1000 || len(res.Errors) != 0 {
			b.Fatalf("got %d objects, %v", len(res.Objects), res.Errors)
		}
	}
}
