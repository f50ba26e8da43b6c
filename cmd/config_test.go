package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/offline/load"
)

// writeTree writes files (relative path -> content) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestFindConfig(t *testing.T) {
	root := writeTree(t, map[string]string{
		"repo/.git/HEAD":               "ref: refs/heads/main\n",
		"repo/.gwsim.yaml":             "ignore: [GWS7001]\n",
		"repo/deploy/base/gw.yaml":     "",
		"repo/deploy/app/.gwsim.yaml":  "ignore: [GWS3001]\n",
		"repo/deploy/app/route.yaml":   "",
		"outside/.gwsim.yaml":          "ignore: [GWS7001]\n",
		"outside/repo2/.git/HEAD":      "",
		"outside/repo2/deploy/gw.yaml": "",
	})
	t.Chdir(root)
	tests := []struct{ start, want string }{
		{"repo/deploy/base/gw.yaml", "repo/.gwsim.yaml"},
		{"repo/deploy/base", "repo/.gwsim.yaml"},
		{"repo/deploy/app/route.yaml", "repo/deploy/app/.gwsim.yaml"},
		{"repo/deploy/app/", "repo/deploy/app/.gwsim.yaml"},
		// The repository root ends the search: a config file above it
		// belongs to something else.
		{"outside/repo2/deploy/gw.yaml", ""},
	}
	for _, tt := range tests {
		got, err := findConfig(tt.start)
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("findConfig(%q) = %q, %v; want %q", tt.start, got, err, tt.want)
		}
	}
}

func TestReadConfigErrors(t *testing.T) {
	tests := []struct{ content, want string }{
		{"ignore: [GWS9999]\n", `ignore[0]: unknown finding code "GWS9999"`},
		{"ignore: ['GWS3001:HTTPRoute']\n", `ignore[0]: "GWS3001:HTTPRoute": want CODE`},
		{"severity: {GWS3001: fatal}\n", `severity: GWS3001: unknown severity "fatal"`},
		{"severity: {GWS0000: info}\n", `severity: unknown finding code "GWS0000"`},
		{"failureThreshold: notice\n", `failureThreshold: unknown severity "notice"`},
		{"channel: beta\n", `channel: "beta" is not standard or experimental`},
		{"assume: secrets\n", `assume: "secrets" is not all, none or a comma-separated list of kinds`},
		{"controllerNames: ['']\n", `controllerNames[0]: must not be empty`},
		{"ignores: [GWS3001]\n", `unknown field "ignores"`},
		{"validate: loose\n", `validate: "loose" is not one of strict|warn|ignore|true|false`},
		{"validate: 1\n", `validate: want one of strict|warn|ignore|true|false`},
	}
	for _, tt := range tests {
		dir := writeTree(t, map[string]string{".gwsim.yaml": tt.content})
		_, err := readConfig(filepath.Join(dir, ".gwsim.yaml"))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), ".gwsim.yaml: ") {
			t.Errorf("%q: error %v, want it to name the file and say %q", tt.content, err, tt.want)
		}
	}
	dir := writeTree(t, map[string]string{".gwsim.yaml": "channel: experimental\nassume: Secret,Service\ncontrollerNames: [a.example/x]\n"})
	if _, err := readConfig(filepath.Join(dir, ".gwsim.yaml")); err != nil {
		t.Errorf("valid config: %v", err)
	}
	for content, want := range map[string]validation{
		"validate: false\n":  {off: true},
		"validate: ignore\n": {off: true},
		"validate: true\n":   {fields: load.FieldsStrict},
		"validate: warn\n":   {fields: load.FieldsWarn},
	} {
		dir := writeTree(t, map[string]string{".gwsim.yaml": content})
		cfg, err := readConfig(filepath.Join(dir, ".gwsim.yaml"))
		if err != nil {
			t.Errorf("%q: %v", content, err)
			continue
		}
		if got, err := parseValidate(string(cfg.Validate)); err != nil || got != want {
			t.Errorf("%q: validation %+v, %v; want %+v", content, got, err, want)
		}
	}
}

// TestConfigMerge checks the merge point: flags win over the file,
// ignore rules add up, and the keys other flags own reach the options.
func TestConfigMerge(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".gwsim.yaml": "ignore: [GWS7001]\nseverity: {GWS1005: error}\nfailureThreshold: warning\n" +
			"controllerNames: [a.example/one, a.example/two]\nchannel: experimental\nassume: none\n",
		"m/gw.yaml":  "",
		"other.yaml": "failureThreshold: info\n",
	})
	p := completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--ignore", "GWS3001")
	pol := p.Findings.policy
	var rules []string
	for _, ig := range pol.Ignores {
		rules = append(rules, ig.From+" "+ig.String())
	}
	if got := strings.Join(rules, "; "); !strings.HasPrefix(got, "--ignore GWS3001; ") || !strings.HasSuffix(got, ".gwsim.yaml GWS7001") {
		t.Errorf("ignores = %q, want the flag's then the file's", got)
	}
	if pol.Threshold.String() != "warning" || pol.Severity["GWS1005"].String() != "error" {
		t.Errorf("threshold %s, GWS1005 %s; want warning and error from the file", pol.Threshold, pol.Severity["GWS1005"])
	}
	if p.ControllerName != "a.example/one" || len(p.ControllerNames) != 2 || p.Channel != "experimental" || p.Assume != "none" {
		t.Errorf("controller %q %v, channel %q, assume %q: want the file's", p.ControllerName, p.ControllerNames, p.Channel, p.Assume)
	}

	p = completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--failure-threshold", "error", "--controller-name", "b.example/x")
	if p.Findings.policy.Threshold.String() != "error" || p.ControllerName != "b.example/x" || len(p.ControllerNames) != 1 {
		t.Errorf("flags given: threshold %s, controllers %v; want the flags'", p.Findings.policy.Threshold, p.ControllerNames)
	}

	// --config replaces the search: the file found upward is not read.
	p = completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--config", filepath.Join(dir, "other.yaml"))
	if p.Findings.policy.Threshold.String() != "info" || len(p.Findings.policy.Ignores) != 0 || p.Channel != "standard" {
		t.Errorf("--config: threshold %s, ignores %v, channel %q; want other.yaml's alone", p.Findings.policy.Threshold, p.Findings.policy.Ignores, p.Channel)
	}
}

// completeFlags parses args into the shared flags and completes them.
func completeFlags(t *testing.T, args ...string) *pipelineFlags {
	t.Helper()
	p := &pipelineFlags{}
	c := &cobra.Command{Use: "check"}
	p.register(c, findingsFormats...)
	if err := c.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	if _, err := p.complete(c); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConfigAndThresholdErrorsExit2 checks that a bad config file or
// threshold stops every command before anything is read, as a usage error.
func TestConfigAndThresholdErrorsExit2(t *testing.T) {
	bad := map[string]string{"gw.yaml": gatewayYAML, ".gwsim.yaml": "severity: {GWS3001: fatal}\n"}
	for _, args := range [][]string{{"check"}, {"routes"}, {"test", "--cases", "@gw.yaml"}} {
		command := args[0]
		got := runCLI(t, Env{}, bad, "", append(args, "-f", "@gw.yaml")...)
		if got.code != exitUsage || !strings.Contains(got.stderr, `.gwsim.yaml: severity: GWS3001: unknown severity "fatal"`) {
			t.Errorf("%s with a bad config: exit %d, stderr %q", command, got.code, got.stderr)
		}
	}
	got := runCLI(t, Env{}, map[string]string{"gw.yaml": gatewayYAML}, "", "check", "-f", "@gw.yaml", "--failure-threshold", "notice")
	if want := "gwsim: error: --failure-threshold: unknown severity \"notice\" (valid: error, warning, info)\nRun 'gwsim check --help' for usage.\n"; got.code != exitUsage || got.stderr != want {
		t.Errorf("bad threshold: exit %d, stderr %q, want %q", got.code, got.stderr, want)
	}
	got = runCLI(t, Env{}, map[string]string{"gw.yaml": gatewayYAML}, "", "check", "-f", "@gw.yaml", "--config", "@missing.yaml")
	if got.code != exitUsage || !strings.Contains(got.stderr, "reading config: open missing.yaml") {
		t.Errorf("missing --config: exit %d, stderr %q", got.code, got.stderr)
	}
}
