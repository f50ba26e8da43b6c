package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/offline/gitrev/gitrevtest"
)

// canaryRoute is routeYAML with a second backend at the given weights.
func canaryRoute(v1, v2 string) string {
	return strings.Replace(routeYAML, "    - name: api\n      port: 8080\n",
		"    - name: api\n      port: 8080\n      weight: "+v1+"\n    - name: api-v2\n      port: 8080\n      weight: "+v2+"\n", 1)
}

const serviceV2YAML = `apiVersion: v1
kind: Service
metadata:
  name: api-v2
spec:
  ports:
  - port: 8080
`

func diffFiles() map[string]string {
	base := classYAML + "---\n" + gatewayYAML + "---\n" + serviceYAML + "---\n" + serviceV2YAML + "---\n"
	return map[string]string{
		"old.yaml":    base + canaryRoute("90", "10"),
		"new.yaml":    base + canaryRoute("0", "1"),
		"broken.yaml": base + strings.Replace(canaryRoute("90", "10"), "name: api-v2", "name: api-v3", 1),
	}
}

func TestDiffExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no change", []string{"diff", "@old.yaml", "@old.yaml"}, 0},
		{"a change", []string{"diff", "@old.yaml", "@new.yaml"}, 1},
		{"NEW with -f", []string{"diff", "@old.yaml", "-f", "@new.yaml"}, 1},
		{"fail on new errors, none", []string{"diff", "@old.yaml", "@new.yaml", "--fail-on", "new-errors"}, 0},
		{"fail on new errors", []string{"diff", "@old.yaml", "@broken.yaml", "--fail-on", "new-errors"}, 1},
		{"fail on request changes", []string{"diff", "@old.yaml", "@new.yaml", "--fail-on", "request-changes"}, 1},
		{"fixing is not a new error", []string{"diff", "@broken.yaml", "@old.yaml", "--fail-on", "new-errors"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, Env{}, diffFiles(), "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
		})
	}
}

func TestDiffOutput(t *testing.T) {
	r := runCLI(t, Env{}, diffFiles(), "", "diff", "@old.yaml", "@new.yaml")
	want := `Summary: 1 route changed, 1 request changes destination

Routing table changes:
  Gateway default/gw port 80 host example.com (listener http)
    ~ HTTPRoute default/web rules[0].matches[0]: PathPrefix /api
        backends: default/api:8080 (90%) + default/api-v2:8080 (10%) → default/api-v2:8080 (100%)

Requests whose outcome changes:
  GET http://example.com/api: default/api:8080 (90%) + default/api-v2:8080 (10%) → default/api-v2:8080 (100%)
`
	if r.stdout != want || r.stderr != "" || r.code != 1 {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}
	same := runCLI(t, Env{}, diffFiles(), "", "diff", "@old.yaml", "@old.yaml", "-o", "markdown")
	if want := "### gwsim diff\n\nNo change to routing, status or findings.\n"; same.stdout != want || same.code != 0 {
		t.Errorf("no change: exit %d, stdout %q, want %q", same.code, same.stdout, want)
	}
}

func TestDiffUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", []string{"diff"}, "pass OLD and NEW"},
		{"only OLD", []string{"diff", "@old.yaml"}, "pass OLD and NEW"},
		{"NEW twice", []string{"diff", "@old.yaml", "@new.yaml", "-f", "@new.yaml"}, "NEW is given twice"},
		{"base with arguments", []string{"diff", "--base", "HEAD", "@old.yaml"}, "--base reads OLD from git"},
		{"bad fail-on", []string{"diff", "@old.yaml", "@new.yaml", "--fail-on", "warnings"}, `unknown --fail-on "warnings"`},
		{"stdin twice", []string{"diff", "-", "-f", "-"}, "not both"},
		{"bad format", []string{"diff", "@old.yaml", "@new.yaml", "-o", "yaml"}, "valid: text, json, markdown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, Env{}, diffFiles(), "", tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestDiffBase runs `gwsim diff --base` in a temporary git repository:
// OLD is the committed version, NEW the edited work tree, which the run
// leaves as it was.
func TestDiffBase(t *testing.T) {
	dir := gitrevtest.Init(t)
	files := diffFiles()
	gitrevtest.Write(t, dir, map[string]string{"deploy/edge.yaml": files["old.yaml"]})
	gitrevtest.Commit(t, dir, "base")
	gitrevtest.Write(t, dir, map[string]string{"deploy/edge.yaml": files["broken.yaml"]})
	t.Chdir(dir)

	var out, errOut bytes.Buffer
	code := Execute([]string{"diff", "--base", "HEAD", "-f", "deploy/"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if code != 1 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	for _, want := range []string{
		"~ HTTPRoute default/web rules[0].matches[0]: PathPrefix /api",
		"backends: default/api:8080 (90%) + default/api-v2:8080 (10%) → default/api:8080 (90%) + 500 BackendNotFound (10%)",
		"deploy/edge.yaml:",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Commit the broken version and fix it in the work tree: the fixed
	// finding points at the file as it is at HEAD.
	gitrevtest.Commit(t, dir, "break")
	gitrevtest.Write(t, dir, map[string]string{"deploy/edge.yaml": files["old.yaml"]})
	out.Reset()
	errOut.Reset()
	code = Execute([]string{"diff", "--base", "HEAD", "-f", "deploy", "--fail-on", "new-errors"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if code != 0 {
		t.Errorf("a fix: exit %d, want 0\n%s%s", code, out.String(), errOut.String())
	}
	if want := "Findings fixed:\n  HEAD:deploy/edge.yaml:"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "deploy", "edge.yaml"))
	if err != nil || string(b) != files["old.yaml"] {
		t.Errorf("the work tree changed: %q, %v", b, err)
	}
}

// TestDiffBaseUnchangedTree runs `gwsim diff --base HEAD` on a tree that
// did not change but for a comment: a file marked export-ignore, a
// committed symbolic link to a file outside the -f directory, and a
// duplicate-key warning whose line moves. The old side reads the same
// objects as the new one, so nothing changed.
func TestDiffBaseUnchangedTree(t *testing.T) {
	dir := gitrevtest.Init(t)
	files := diffFiles()
	dup := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\n  name: dup\n"
	gitrevtest.Write(t, dir, map[string]string{
		".gitattributes":     "deploy/hidden.yaml export-ignore\n",
		"deploy/hidden.yaml": files["old.yaml"],
		"deploy/dup.yaml":    dup,
		"shared/extra.yaml":  "apiVersion: v1\nkind: Service\nmetadata:\n  name: extra\nspec:\n  ports:\n  - port: 80\n",
	})
	if err := os.Symlink("../shared/extra.yaml", filepath.Join(dir, "deploy", "extra.yaml")); err != nil {
		t.Fatal(err)
	}
	gitrevtest.Commit(t, dir, "base")
	gitrevtest.Write(t, dir, map[string]string{"deploy/dup.yaml": "# a comment moves the duplicate key down\n" + dup})
	t.Chdir(dir)

	var out, errOut bytes.Buffer
	code := Execute([]string{"diff", "--base", "HEAD", "-f", "deploy", "--fail-on", "any"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if want := "No change to routing, status or findings.\n"; code != 0 || out.String() != want {
		t.Errorf("exit %d, output:\n%s%s\nwant exit 0 and %q", code, out.String(), errOut.String(), want)
	}
}

// TestDiffBaseKustomize: with --base, a -k directory is read from the
// revision too, and so is the base its kustomization names outside it, so
// that a change to the base shows; named with -f, the overlay is built the
// same way.
func TestDiffBaseKustomize(t *testing.T) {
	dir := gitrevtest.Init(t)
	files := diffFiles()
	gitrevtest.Write(t, dir, map[string]string{
		"base/kustomization.yaml":             "resources:\n- edge.yaml\n",
		"base/edge.yaml":                      files["old.yaml"],
		"overlays/prod/kustomization.yaml":    "resources:\n- ../../base\n",
		"overlays/staging/kustomization.yaml": "resources:\n- ../../base\n",
	})
	gitrevtest.Commit(t, dir, "base")
	gitrevtest.Write(t, dir, map[string]string{"base/edge.yaml": files["broken.yaml"]})
	t.Chdir(dir)
	for _, args := range [][]string{{"-k", "overlays/prod"}, {"-f", "overlays/prod"}} {
		var out, errOut bytes.Buffer
		code := Execute(append([]string{"diff", "--base", "HEAD"}, args...), Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
		if code != 1 {
			t.Fatalf("%v: exit %d, stderr:\n%s", args, code, errOut.String())
		}
		want := "backends: default/api:8080 (90%) + default/api-v2:8080 (10%) → default/api:8080 (90%) + 500 BackendNotFound (10%)"
		if !strings.Contains(out.String(), want) {
			t.Errorf("%v: output lacks %q:\n%s", args, want, out.String())
		}
	}
}
