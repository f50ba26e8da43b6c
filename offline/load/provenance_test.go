package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
)

// TestProvenance checks that a document that names where it was written
// gets that source: the template of a helm `# Source:` comment, the file
// and line of a `config.kubernetes.io/origin` annotation (relative to the
// working directory, else to the directory of the file holding it), the
// file alone when the origin's file cannot be read.
func TestProvenance(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("base"), 0o755); err != nil {
		t.Fatal(err)
	}
	route := "apiVersion: v1\nkind: Service\nmetadata:\n  name: other\n---\n# the route\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec: {}\n"
	if err := os.WriteFile(filepath.Join("base", "route.yaml"), []byte(route), 0o644); err != nil {
		t.Fatal(err)
	}
	built := func(path, name string) string {
		return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: " + name +
			"\n  namespace: shop\n  annotations:\n    config.kubernetes.io/origin: |\n      path: " + path + "\nspec: {}\n"
	}
	stdin := built("base/route.yaml", "prod-web") + "---\n" + built("gone/route.yaml", "gone") +
		"---\n# Source: shop/templates/route.yaml\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: helm\nspec: {}\n"
	if err := os.MkdirAll("overlay", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("overlay", "built.yaml"), []byte(built("../base/route.yaml", "beside")), 0o644); err != nil {
		t.Fatal(err)
	}
	res := Load(Options{Paths: []string{"-", filepath.Join("overlay", "built.yaml")}, Stdin: strings.NewReader(stdin)})
	if len(res.Errors) > 0 || len(res.Objects) != 4 {
		t.Fatal(res.Errors, res.Findings)
	}
	want := map[string]diag.Source{
		"shop/prod-web": {File: "base/route.yaml", Line: 7},
		"shop/gone":     {File: "gone/route.yaml"},
		"default/helm":  {File: "shop/templates/route.yaml"},
		"shop/beside":   {File: "base/route.yaml", Line: 7},
	}
	for key, src := range want {
		ns, name, _ := strings.Cut(key, "/")
		if got := res.Sources[diag.ObjectRef{Kind: "HTTPRoute", Namespace: ns, Name: name}]; got != src {
			t.Errorf("%s: source %v, want %v", key, got, src)
		}
	}
}
