// Package action tests gwsim's GitHub Action: action/run.sh, which holds
// its logic, run as the action runs it, and action.yml and
// .pre-commit-hooks.yaml, checked against the script and the CLI.
package action

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// runScript runs action/run.sh from the repository root, as the action
// does from the workspace, with env added to the test's environment.
func runScript(t *testing.T, env []string, args ...string) (stdout string, code int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"action/run.sh"}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run.sh %v: %v\n%s", args, err, errOut.String())
	}
	return out.String(), code
}

// installSource installs gwsim from this checkout as the action does with
// version "source", and returns the directory that holds it.
func installSource(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if _, code := runScript(t, []string{"GWSIM_VERSION=source", "GWSIM_INSTALL_DIR=" + bin}, "install"); code != 0 {
		t.Fatalf("install exit %d", code)
	}
	return bin
}

// TestActionScript installs gwsim from this checkout as the action would
// (version "source") and runs the action's check on examples/, which hold
// one broken route on purpose: one annotation on its line, exit 1, the
// outputs the later steps read, and SARIF when the installed gwsim writes
// it (a notice when it does not).
func TestActionScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("action/run.sh needs bash")
	}
	tmp := t.TempDir()
	bin, ghPath, ghOut := filepath.Join(tmp, "bin"), filepath.Join(tmp, "path"), filepath.Join(tmp, "output")
	_, code := runScript(t, []string{"GWSIM_VERSION=source", "GWSIM_INSTALL_DIR=" + bin, "GITHUB_PATH=" + ghPath, "GITHUB_OUTPUT=" + ghOut}, "install")
	if code != 0 {
		t.Fatalf("install exit %d", code)
	}
	if b, _ := os.ReadFile(ghPath); strings.TrimSpace(string(b)) != bin {
		t.Errorf("GITHUB_PATH holds %q, want %q", b, bin)
	}
	if got := delimitedOutputs(t, ghOut)["path"]; got != filepath.Join(bin, "gwsim") {
		t.Errorf("output path = %q", got)
	}

	sarif := filepath.Join(tmp, "gwsim.sarif")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "GWSIM_FILES=examples/",
		"GWSIM_SARIF_FILE=" + sarif, "GITHUB_OUTPUT=" + filepath.Join(tmp, "check-output")}
	stdout, code := runScript(t, env, "check")
	if code != 1 {
		t.Errorf("check exit %d, want 1:\n%s", code, stdout)
	}
	annotations := regexp.MustCompile(`(?m)^::error file=examples/shop\.yaml,line=\d+,title=[^:]+::HTTPRoute shop/recommendations: `).FindAllString(stdout, -1)
	if len(annotations) != 1 {
		t.Errorf("want one error annotation on HTTPRoute shop/recommendations, got:\n%s", stdout)
	}
	out := delimitedOutputs(t, filepath.Join(tmp, "check-output"))
	if out["exit-code"] != "1" {
		t.Errorf("output exit-code = %q, want 1", out["exit-code"])
	}
	switch out["sarif-file"] {
	case sarif:
		var doc struct{ Version string }
		b, err := os.ReadFile(sarif)
		if err != nil || json.Unmarshal(b, &doc) != nil || doc.Version != "2.1.0" {
			t.Errorf("SARIF file %s is not SARIF 2.1.0 (%v):\n%.300s", sarif, err, b)
		}
	default:
		t.Errorf("output sarif-file = %q, want %q", out["sarif-file"], sarif)
	}

	// Without files the action fails as gwsim does on a usage error.
	stdout, code = runScript(t, []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "GWSIM_FILES=",
		"GITHUB_OUTPUT=" + filepath.Join(tmp, "empty-output")}, "check")
	if code != 2 || !strings.HasPrefix(stdout, "::error title=gwsim::no manifests") {
		t.Errorf("check without files: exit %d, want 2 and an error annotation:\n%s", code, stdout)
	}
}

// actionFile is the part of action.yml the test checks.
type actionFile struct {
	Inputs map[string]struct {
		Required bool   `json:"required"`
		Default  string `json:"default"`
	} `json:"inputs"`
	Runs struct {
		Using string `json:"using"`
		Steps []struct {
			ID   string            `json:"id"`
			Uses string            `json:"uses"`
			Run  string            `json:"run"`
			Env  map[string]string `json:"env"`
			With map[string]string `json:"with"`
		} `json:"steps"`
	} `json:"runs"`
}

// TestActionFile keeps action.yml in step with run.sh: a composite action
// whose steps run the script's install and check, feed it only variables
// the script documents, take every input, and upload SARIF with
// codeql-action's upload-sarif.
func TestActionFile(t *testing.T) {
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile // the fields the test reads; name, branding... are left out
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	var runs []string
	used := map[string]bool{}
	uploads := false
	for _, s := range a.Runs.Steps {
		if s.Run != "" {
			runs = append(runs, s.Run)
		}
		for name, value := range s.Env {
			if strings.HasPrefix(name, "GWSIM_") && !bytes.Contains(script, []byte("#   "+name)) {
				t.Errorf("step %q sets %s, which run.sh does not document", s.ID, name)
			}
			for input := range a.Inputs {
				if strings.Contains(value, "inputs."+input+" ") || strings.Contains(value, "inputs."+input+"}") {
					used[input] = true
				}
			}
		}
		for _, value := range s.With {
			for input := range a.Inputs {
				if strings.Contains(value, "inputs."+input+" ") {
					used[input] = true
				}
			}
		}
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") && s.With["sarif_file"] == "${{ steps.check.outputs.sarif-file }}" {
			uploads = true
		}
	}
	for _, want := range []string{`"$GITHUB_ACTION_PATH/action/run.sh" install`, `"$GITHUB_ACTION_PATH/action/run.sh" check`} {
		if !slices.Contains(runs, want) {
			t.Errorf("no step runs %s", want)
		}
	}
	for input := range a.Inputs {
		if !used[input] {
			t.Errorf("input %q is not passed to any step", input)
		}
	}
	if !uploads {
		t.Error("no step uploads the check step's SARIF file with github/codeql-action/upload-sarif")
	}
}

// TestPreCommitHook checks the hook definition: it runs gwsim check, once
// for the whole set (gwsim resolves references across files), and is
// built by pre-commit's golang support.
func TestPreCommitHook(t *testing.T) {
	b, err := os.ReadFile("../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string `json:"id"`
		Entry         string `json:"entry"`
		Language      string `json:"language"`
		PassFilenames *bool  `json:"pass_filenames"`
		Files         string `json:"files"`
		Name          string `json:"name"`
		Description   string `json:"description"`
		AlwaysRun     bool   `json:"always_run"`
	}
	if err := yaml.UnmarshalStrict(b, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].ID != "gwsim-check" || hooks[0].Entry != "gwsim check" || hooks[0].Language != "golang" ||
		hooks[0].PassFilenames == nil || *hooks[0].PassFilenames {
		t.Errorf("hooks = %+v", hooks)
	}
	if !regexp.MustCompile(hooks[0].Files).MatchString("deploy/gateway.yaml") {
		t.Errorf("files %q does not match a YAML manifest", hooks[0].Files)
	}
}
