package cmd

import (
	"fmt"
	"strings"
	"testing"
)

// TestOneBadDocumentLosesOnlyItself: among 1,000 good routes, one whose
// backend port is a word is refused as the API server would refuse it
// (one error finding at its line, the object left out), and the other
// 1,000 are computed and printed; the run exits 1, not 2. The same holds
// when the file is a kustomization's resource (-k).
func TestOneBadDocumentLosesOnlyItself(t *testing.T) {
	const good = 1000
	var b strings.Builder
	b.WriteString(classYAML + "---\n" + gatewayYAML + "---\n" + serviceYAML)
	route := func(name, port string) {
		fmt.Fprintf(&b, "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: %s\nspec:\n"+
			"  parentRefs: [{name: gw}]\n  rules:\n  - matches: [{path: {type: PathPrefix, value: /%s}}]\n"+
			"    backendRefs: [{name: api, port: %s}]\n", name, name, port)
	}
	for i := range good {
		route(fmt.Sprintf("r%04d", i), "8080")
		if i == good/2 {
			route("bad", "eighty")
		}
	}
	files := map[string]string{"all.yaml": b.String(), "kustomization.yaml": "resources:\n- all.yaml\n"}
	// The same file read directly and through a kustomize build: a build
	// screens and decodes each document as the loader does.
	for _, args := range [][]string{{"-f", "@all.yaml"}, {"-k", "@"}} {
		t.Run(args[0], func(t *testing.T) {
			got := runCLI(t, Env{}, files, "", append([]string{"routes"}, args...)...)
			if got.code != exitFindings {
				t.Errorf("exit code = %d, want %d\nstderr:\n%.2000s", got.code, exitFindings, got.stderr)
			}
			printed := 0
			for _, line := range strings.Split(got.stdout, "\n") {
				if strings.Contains(line, "HTTPRoute default/r") {
					printed++
				}
				if strings.Contains(line, "HTTPRoute default/bad") {
					t.Errorf("the refused route is printed: %s", line)
				}
			}
			if printed != good {
				t.Errorf("%d routes printed, want %d", printed, good)
			}
			if n := strings.Count(got.stderr, "error["); n != 1 {
				t.Errorf("%d errors on stderr, want 1", n)
			}
			const want = `all.yaml:5045: error[GWS2010]: HTTPRoute default/bad: spec.rules[0].backendRefs[0].port: Invalid value: "string": `
			if !strings.Contains(got.stderr, want) {
				t.Errorf("stderr does not hold %q:\n%.2000s", want, got.stderr)
			}
		})
	}
}
