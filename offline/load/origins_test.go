package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
)

const locateRoute = `# a comment
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: shop
spec:
  parentRefs:
  - name: edge
    namespace: infra
  rules:
  - backendRefs:
    - name: a
      port: 80
    - name: b
      port: 80
`

const locateGateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: gwsim
  listeners:
  - name: http
    protocol: HTTP
    port: 80
  - name: https
    protocol: HTTPS
    port: 443
    tls:
      certificateRefs:
      - name: cert
`

const locateList = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: a, namespace: shop}
  spec:
    ports:
    - port: 80
- apiVersion: v1
  kind: Service
  metadata: {name: b, namespace: shop}
  spec:
    ports:
    - {name: http, port: 80}
    - {name: https, port: 443}
`

// TestFieldLines: findings at an object's document start move to the line
// of their field (or Locus), in files, Lists and stdin; findings the loader
// placed, status fields and files changed since keep theirs.
func TestFieldLines(t *testing.T) {
	dir := writeFiles(t, map[string]string{"route.yaml": "---\n" + locateRoute, "gw.yaml": locateGateway, "list.yaml": locateList})
	res := Load(Options{Paths: []string{dir, "-"}, Stdin: strings.NewReader(strings.ReplaceAll(locateRoute, "name: web", "name: piped"))})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	route := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "web"}
	piped := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "piped"}
	gw := diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "edge"}
	svcB := diag.ObjectRef{Kind: "Service", Namespace: "shop", Name: "b"}
	at := func(ref diag.ObjectRef, field string) diag.Finding {
		return diag.Finding{Object: ref, Source: res.Sources.Of(ref), Field: field}
	}
	assumed := diag.Finding{Object: diag.ObjectRef{Kind: "Secret", Namespace: "infra", Name: "cert"},
		Locus: diag.Locus{Object: gw, Field: "spec.listeners[https].tls.certificateRefs[0]"}}
	status := at(gw, "status.listeners[https]")
	status.Locus = diag.Locus{Field: "spec.listeners[1]"}
	placed := at(route, "spec.rules[0].backendRefs[1]")
	placed.Source.Line = 4
	fs := []diag.Finding{
		at(route, "spec.rules[0].backendRefs[1]"),
		at(route, "spec.parentRefs[0]"),
		at(route, "spec.rules[0].backendRefs[0].filters[2]"), // missing: the backendRef's line
		at(route, "status.parents[infra/edge]"),              // no Locus: stays
		at(route, "spec.nothing"),                            // the deepest part the document has: spec
		placed,
		status,
		assumed,
		at(svcB, "spec.ports[1]"),
		at(piped, "spec.rules[0].backendRefs[1]"),
	}
	res.Origins.FieldLines(fs, res.Sources)
	var got []string
	for _, f := range fs {
		got = append(got, strings.TrimPrefix(f.Source.String(), dir+string(filepath.Separator)))
	}
	want := []string{"route.yaml:16", "route.yaml:10", "route.yaml:14", "route.yaml:3", "route.yaml:8", "route.yaml:4",
		"gw.yaml:10", "gw.yaml:15", "list.yaml:16", "<stdin>:15"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sources\n%q\nwant\n%q", got, want)
	}

	// A file that changed since it was loaded gives no lines.
	if err := os.WriteFile(filepath.Join(dir, "route.yaml"), []byte("\n\n\n\n"+locateRoute), 0o644); err != nil {
		t.Fatal(err)
	}
	fs = []diag.Finding{at(route, "spec.rules[0].backendRefs[1]")}
	res.Origins.FieldLines(fs, res.Sources)
	if fs[0].Source != res.Sources.Of(route) {
		t.Errorf("changed file: source %s, want the document's start %s", fs[0].Source, res.Sources.Of(route))
	}
}

// TestFieldLinesFIFO: a FIFO named with -f (`-f <(kustomize build)`) cannot
// be read twice; its bytes are kept, so its findings still move to their
// field, and the second read that would block is never tried.
func TestFieldLinesFIFO(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "built.yaml")
	if err := mkfifo(pipe); err != nil {
		t.Skip(err)
	}
	go func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.WriteString(locateRoute)
			f.Close()
		}
	}()
	res := Load(Options{Paths: []string{pipe}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	route := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "web"}
	fs := []diag.Finding{{Object: route, Source: res.Sources.Of(route), Field: "spec.rules[0].backendRefs[1]"}}
	res.Origins.FieldLines(fs, res.Sources)
	if want := (diag.Source{File: pipe, Line: 15}); fs[0].Source != want {
		t.Errorf("source %s, want %s", fs[0].Source, want)
	}
}

// TestFieldLinesPatched: a finding on a built object's field that a
// strategic merge patch holds whole points at the patch; one on a field
// only the base has, at the base. Before, both stayed at the base
// document's first line, the files of a build not being kept for lines.
func TestFieldLinesPatched(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base/kustomization.yaml":   "resources:\n- route.yaml\n",
		"base/route.yaml":           "# the route\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec:\n  parentRefs:\n  - name: edge\n  rules:\n  - backendRefs:\n    - name: web\n      port: 80\n",
		"prod/kustomization.yaml":   "namespace: shop\nresources:\n- ../base\npatches:\n- path: patch.yaml\n",
		"prod/patch.yaml":           "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec:\n  rules:\n  - backendRefs:\n    - name: web\n      port: 80\n  - backendRefs:\n    - name: checkout\n      port: 8080\n",
		"prod/unrelated-patch.yaml": "# not in the build\n",
	})
	res := Load(Options{Paths: []string{filepath.Join(dir, "prod")}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	route := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "web"}
	at := func(field string) diag.Finding {
		return diag.Finding{Object: route, Source: res.Sources.Of(route), Field: field}
	}
	fs := []diag.Finding{at("spec.rules[1].backendRefs[0]"), at("spec.parentRefs[0]"), at("spec.rules[1]"), at("spec.hostnames")}
	res.Origins.FieldLines(fs, res.Sources)
	var got []string
	for _, f := range fs {
		got = append(got, strings.TrimPrefix(f.Source.String(), dir+string(filepath.Separator)))
	}
	want := []string{"prod/patch.yaml:11", "base/route.yaml:8", "prod/patch.yaml:10", "base/route.yaml:6"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sources\n%q\nwant\n%q", got, want)
	}
}
