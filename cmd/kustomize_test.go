package cmd

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomizeDir is a base with two routes and an overlay that moves them
// into a namespace, labels them and patches both (a strategic merge patch
// from a file and an inline JSON patch).
const kustomizeDir = "testdata/kustomize"

// TestKustomizeMatchesBuildOutput checks that gwsim -k builds what
// kustomize builds: the routes of `routes -k overlay` are those of the
// overlay built by krusty itself (with its defaults, as kubectl kustomize
// builds) and read from stdin, and, where kubectl is installed, those of
// `kubectl kustomize overlay | gwsim routes -f -`.
func TestKustomizeMatchesBuildOutput(t *testing.T) {
	overlay := filepath.Join(kustomizeDir, "overlay")
	want := runCLI(t, Env{}, nil, "", "routes", "-o", "yaml", "-k", overlay)
	if want.code != 0 && want.code != 1 || !strings.Contains(want.stdout, "shop/store") {
		t.Fatalf("routes -k: exit %d\n%s%s", want.code, want.stdout, want.stderr)
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), overlay)
	if err != nil {
		t.Fatal(err)
	}
	built, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	lib := runCLI(t, Env{}, nil, string(built), "routes", "-o", "yaml", "-f", "-")
	if lib.stdout != want.stdout || lib.code != want.code {
		t.Errorf("krusty's output through stdin differs from -k:\n--- -k (exit %d)\n%s--- stdin (exit %d)\n%s", want.code, want.stdout, lib.code, lib.stdout)
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Log("kubectl not installed: compared with krusty's output only")
		return
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(kubectl, "kustomize", overlay)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl kustomize: %v\n%s", err, errOut.String())
	}
	kc := runCLI(t, Env{}, nil, out.String(), "routes", "-o", "yaml", "-f", "-")
	if kc.stdout != want.stdout || kc.code != want.code {
		t.Errorf("kubectl kustomize's output differs from -k:\n--- -k (exit %d)\n%s--- kubectl (exit %d)\n%s", want.code, want.stdout, kc.code, kc.stdout)
	}
}

// TestKustomizeFindingsPointAtSources checks that a finding about a built
// object names the file the object was read from and its line there, not
// stdin or the kustomization.
func TestKustomizeFindingsPointAtSources(t *testing.T) {
	got := runCLI(t, Env{}, nil, "", "check", "-k", filepath.Join(kustomizeDir, "overlay"))
	// The rule is the overlay's patch's (a strategic merge patch replaces
	// the base's rules), so the finding points there.
	want := filepath.Join(kustomizeDir, "overlay", "store.yaml") + ":17: error[GWS3001]: HTTPRoute shop/store:"
	if got.code != 1 || !strings.Contains(got.stdout, want) {
		t.Errorf("check -k: exit %d, want 1 and a line starting %q:\n%s%s", got.code, want, got.stdout, got.stderr)
	}
	if strings.Contains(got.stdout, "<stdin>") || strings.Contains(got.stdout, "GWS1011") {
		t.Errorf("check -k names stdin, or says it built a directory the user named with -k:\n%s", got.stdout)
	}
}
