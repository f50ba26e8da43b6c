package load

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/offline/validate"
)

// routeNamed is an HTTPRoute of the gateway gatewayYAML declares, with
// the backend port given as written.
func routeNamed(name, port string) string {
	return fmt.Sprintf(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: %s
spec:
  parentRefs:
  - name: gw
    namespace: infra
  rules:
  - backendRefs:
    - name: web
      port: %s
`, name, port)
}

// TestBuildKeepsPerDocumentRules: the rules the loader applies to each
// document of a file it reads hold for the files a kustomize build reads:
// a document that does not parse, or does not decode into its kind, is
// left out alone with an error finding at its line; a document whose
// aliases expand past the limit is an input error and the rest is built;
// SOPS-encrypted content whose kind is encrypted is skipped; --channel auto sees the built kinds.
func TestBuildKeepsPerDocumentRules(t *testing.T) {
	routes := strings.Join([]string{
		routeNamed("a", "eighty"),
		routeNamed("b", "80"),
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: c\nspec:\n  parentRefs: [ name: gw\n",
		strings.Replace(aliasDoc(0, 33000), "namespace: shop", "namespace: infra", 1),
		"apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata:\n  name: t\nspec:\n  parentRefs:\n  - name: gw\n    namespace: infra\n  rules:\n  - backendRefs:\n    - name: web\n      port: 80\n",
		"apiVersion: v1\nkind: ENC[AES256_GCM,data:x]\nmetadata:\n  name: tls\ndata:\n  tls.crt: ENC[AES256_GCM,data:x]\nsops:\n  version: 3.8.1\n",
	}, "---\n")
	dir := writeFiles(t, map[string]string{
		"app/kustomization.yaml": "resources:\n- gateway.yaml\n- routes.yaml\n",
		"app/gateway.yaml":       gatewayYAML,
		"app/routes.yaml":        routes,
	})
	res := Load(Options{Paths: []string{dir + "/app"}, Channel: ChannelAuto, Limits: Limits{ExpandedBytes: 1 << 20}})
	got := summarize(dir, res)
	wantObjects := []string{
		"Gateway infra/gw gateway.networking.k8s.io/v1 @ app/gateway.yaml:1",
		"HTTPRoute default/b gateway.networking.k8s.io/v1 @ app/routes.yaml:14",
		"TCPRoute default/t gateway.networking.k8s.io/v1 @ app/routes.yaml:42",
	}
	if diff := cmp.Diff(wantObjects, got.Objects); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if res.Channel != validate.Experimental {
		t.Errorf("channel %s, want experimental (the TCPRoute)", res.Channel)
	}
	for _, want := range []string{
		`app/routes.yaml:12: error: HTTPRoute default/a: spec.rules[0].backendRefs[0].port`,
		`app/routes.yaml:32: error: yaml: line 32: did not find expected ',' or ']'; gwsim leaves this document out of the build and builds the rest`,
		`skipped 1 YAML document found in directories that is not a Kubernetes object (Helm values, application config, CI workflows and SOPS-encrypted files are never applied as manifests): encrypted with SOPS (app/routes.yaml:55)`,
	} {
		if !slices.ContainsFunc(got.Findings, func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("no finding %q in\n%s", want, strings.Join(got.Findings, "\n"))
		}
	}
	if len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0], "app/routes.yaml:34: error: aliases expand this") {
		t.Errorf("errors = %q, want the alias bomb's at app/routes.yaml:34", got.Errors)
	}
}

// TestBuildChargesTheLimits: what a build reads and expands counts against
// the limits of the whole input, so that the raw files read after it get
// what is left; a base included again and again costs its bytes each time.
func TestBuildChargesTheLimits(t *testing.T) {
	t.Run("aliases", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{
			"app/kustomization.yaml": "resources:\n- bomb.yaml\n",
			"app/bomb.yaml":          aliasDoc(0, 600),
			"raw/bomb.yaml":          aliasDoc(1, 600),
		})
		// Each expands to some 600 KB: the second is over a 1 MiB budget.
		res := Load(Options{Paths: []string{dir + "/app", dir + "/raw"}, Limits: Limits{TotalExpandedBytes: 1 << 20}})
		got := summarize(dir, res)
		if len(got.Objects) != 1 || !strings.HasPrefix(got.Objects[0], "HTTPRoute shop/bomb0") {
			t.Errorf("objects = %q, want the built bomb0 only", got.Objects)
		}
		if len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0], "raw/bomb.yaml:1: error: aliases expand this") {
			t.Errorf("errors = %q, want raw/bomb.yaml's", got.Errors)
		}
	})
	t.Run("repeated base", func(t *testing.T) {
		files := map[string]string{"base/kustomization.yaml": "resources:\n- route.yaml\n", "base/route.yaml": routeNamed("r", "80") + strings.Repeat("# padding\n", 100)}
		// Each level includes the one below twice, under two prefixes:
		// level 8 builds 256 copies of the route.
		for i := 1; i <= 8; i++ {
			below := "../base"
			if i > 1 {
				below = fmt.Sprintf("../l%d", i-1)
			}
			files[fmt.Sprintf("l%d/kustomization.yaml", i)] = fmt.Sprintf("resources:\n- xa\n- ya\n")
			files[fmt.Sprintf("l%d/xa/kustomization.yaml", i)] = fmt.Sprintf("namePrefix: x-\nresources:\n- ../%s\n", below)
			files[fmt.Sprintf("l%d/ya/kustomization.yaml", i)] = fmt.Sprintf("namePrefix: y-\nresources:\n- ../%s\n", below)
		}
		dir := writeFiles(t, files)
		res := Load(Options{Kustomize: []string{dir + "/l8"}, Limits: Limits{TotalBytes: 100 << 10}})
		if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "counting a file again each time a kustomization includes it") {
			t.Errorf("errors = %v, want the total byte limit", res.Errors)
		}
		res = Load(Options{Kustomize: []string{dir + "/l8"}})
		if len(res.Objects) != 256 || len(res.Errors) != 0 {
			t.Errorf("%d objects, errors %v; want 256 without a limit in the way", len(res.Objects), res.Errors)
		}
	})
}

// TestBuildNamesFilesItDoesNotRead: the manifest files beside a
// kustomization that its build does not read are not loaded (kubectl
// apply -k would not apply them), and the build's finding names them.
func TestBuildNamesFilesItDoesNotRead(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"app/kustomization.yaml": "resources:\n- gateway.yaml\n",
		"app/gateway.yaml":       gatewayYAML,
		"app/stray.yaml":         routeNamed("stray", "80"),
		"app/values.yaml":        "replicaCount: 2\n",
	})
	res := Load(Options{Paths: []string{dir + "/app"}})
	got := summarize(dir, res)
	if want := []string{"Gateway infra/gw gateway.networking.k8s.io/v1 @ app/gateway.yaml:1"}; !slices.Equal(got.Objects, want) {
		t.Errorf("objects = %q, want %q", got.Objects, want)
	}
	want := "app/kustomization.yaml: info: built with kustomize, as kubectl apply -k would apply it, instead of reading the directory's files one by one (1 object from 2 files; --no-kustomize reads the files); 2 files beside it are not in the build, so not read: app/stray.yaml, app/values.yaml"
	if !slices.Contains(got.Findings, want) {
		t.Errorf("findings = %q, want %q", got.Findings, want)
	}
}

// TestBuildFieldSetByPatch: an error in a field a strategic merge patch
// sets points at the patch's line; one in a field only the base has
// points at the base.
func TestBuildFieldSetByPatch(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base/kustomization.yaml":    "resources:\n- routes.yaml\n",
		"base/routes.yaml":           routeNamed("a", "80") + "---\n" + routeNamed("b", "eighty"),
		"overlay/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: patch.yaml\n",
		"overlay/patch.yaml":         routeNamed("a", "ninety"),
	})
	res := Load(Options{Kustomize: []string{dir + "/overlay"}})
	got := summarize(dir, res)
	for _, want := range []string{
		"overlay/patch.yaml:12: error: HTTPRoute default/a: spec.rules[0].backendRefs[0].port: Invalid value",
		"base/routes.yaml:25: error: HTTPRoute default/b: spec.rules[0].backendRefs[0].port: Invalid value",
	} {
		if !slices.ContainsFunc(got.Findings, func(f string) bool { return strings.HasPrefix(f, want) }) {
			t.Errorf("no finding starting %q in\n%s", want, strings.Join(got.Findings, "\n"))
		}
	}
}
