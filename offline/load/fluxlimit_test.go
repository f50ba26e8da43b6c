package load

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFluxSubstitutionIsBounded checks that what Flux variables add to a
// document counts against the expansion limits: a 40 KiB value referenced
// a thousand times would make a 13 KB document 40 MB. That document is
// refused at its line; the app's other document loads.
func TestFluxSubstitutionIsBounded(t *testing.T) {
	refs := strings.Repeat(" ${BIG}", 1000)
	dir := writeFiles(t, map[string]string{
		"clusters/prod/apps.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\n" +
			"spec:\n  interval: 10m\n  path: ./apps/shop\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n" +
			"  targetNamespace: shop\n  postBuild:\n    substitute:\n      BIG: " + strings.Repeat("a", 40<<10) + "\n      SMALL: b\n",
		"apps/shop/routes.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  k: \"" + refs + "\"\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\ndata:\n  k: ${SMALL}\n",
	})
	res := Load(Options{Paths: []string{dir}, Recursive: true})
	got := summarize(dir, res)
	if !slices.ContainsFunc(got.Objects, func(o string) bool { return strings.HasPrefix(o, "ConfigMap shop/fine ") }) {
		t.Errorf("objects %v: want ConfigMap shop/fine", got.Objects)
	}
	if slices.ContainsFunc(got.Objects, func(o string) bool { return strings.HasPrefix(o, "ConfigMap shop/bomb ") }) {
		t.Errorf("objects %v: ConfigMap shop/bomb loaded", got.Objects)
	}
	want := fmt.Sprintf("document by more than %d bytes (the limit per document", DefaultExpandedBytes)
	if !slices.ContainsFunc(got.Errors, func(e string) bool {
		return strings.Contains(e, "apps/shop/routes.yaml:1: error: ") && strings.Contains(e, want)
	}) {
		t.Errorf("errors %q: want one at apps/shop/routes.yaml:1 with %q", got.Errors, want)
	}
}
