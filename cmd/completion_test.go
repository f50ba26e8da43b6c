package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompletion checks that each shell gets cobra's script, that -o
// completes with the command's own formats, and that a missing or unknown
// shell is a usage error rather than help and exit 0.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash": "# bash completion V2 for gwsim", "zsh": "#compdef gwsim",
		"fish": "# fish completion for gwsim", "powershell": "# powershell completion for gwsim",
	} {
		got := runCLI(t, Env{}, nil, "", "completion", shell)
		if got.code != exitOK || !strings.HasPrefix(got.stdout, marker) {
			t.Errorf("completion %s: exit %d, stdout starts %.60q, want %q", shell, got.code, got.stdout, marker)
		}
	}
	got := runCLI(t, Env{}, nil, "", "__complete", "status", "-o", "")
	if want := "yaml\njson\ntext\ntable\n:4\n"; got.stdout != want {
		t.Errorf("completing status -o: %q, want %q", got.stdout, want)
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}} {
		if got := runCLI(t, Env{}, nil, "", args...); got.code != exitUsage || got.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 2 and no output", args, got.code, got.stdout)
		}
	}
}

func TestVersionJSON(t *testing.T) {
	got := runCLI(t, Env{}, nil, "", "version", "-o", "json")
	var v versions
	if err := json.Unmarshal([]byte(got.stdout), &v); err != nil || got.code != exitOK {
		t.Fatalf("version -o json: exit %d, %v:\n%s", got.code, err, got.stdout)
	}
	if v.GWSim == "" || v.GatewayAPI != gatewayAPIVersion || !strings.HasPrefix(v.Go, "go") || !strings.Contains(v.Platform, "/") {
		t.Errorf("version -o json = %+v", v)
	}
	text := runCLI(t, Env{}, nil, "", "version")
	if want := "gwsim " + v.GWSim + "\ngateway-api " + v.GatewayAPI + "\n"; text.stdout != want {
		t.Errorf("version = %q, want %q (the same versions as JSON)", text.stdout, want)
	}
}
