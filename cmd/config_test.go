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
		{"ignore: ['GWS3001:HTTPRoute']\n", `.gwsim.yaml:1: ignore[0]: "GWS3001:HTTPRoute": want CODE`},
		{"# settings\nignore:\n- GWS3001\n- 'GWS3001:HTTPRoute'\n", `.gwsim.yaml:4: ignore[1]: "GWS3001:HTTPRoute": want CODE`},
		{"severity: {GWS3001: fatal}\n", `.gwsim.yaml:1: severity: GWS3001: unknown severity "fatal"`},
		{"severity: {GWS0000: info}\n", `.gwsim.yaml:1: severity: unknown finding code "GWS0000"`},
		{"channel: standard\nfailureThreshold: notice\n", `.gwsim.yaml:2: failureThreshold: unknown severity "notice"`},
		{"channel: beta\n", `.gwsim.yaml:1: channel: "beta" is not auto, standard or experimental`},
		{"assume: secrets\n", `.gwsim.yaml:1: assume: "secrets" is not all, none or a comma-separated list of kinds`},
		{"controllerNames: ['']\n", `.gwsim.yaml:1: controllerNames[0]: must not be empty`},
		{"\nignores: [GWS3001]\n", `.gwsim.yaml:2: unknown setting "ignores" (the settings are `},
		{"ignore: [GWS3001]\nignore: [GWS7001]\n", `.gwsim.yaml:2: ignore: given twice (first at line 1)`},
		{"channel: [standard]\n", `.gwsim.yaml:1: channel: want a string, not a list`},
		{"severity: [GWS3001]\n", `.gwsim.yaml:1: severity: want a mapping of strings, not a list`},
		{"ignore: GWS3001\n", `.gwsim.yaml:1: ignore: want a list of strings, not a string`},
		{"- channel\n", `.gwsim.yaml:1: not a mapping of settings`},
		{"channel: &c standard\nassume: *c\n", `.gwsim.yaml:2: assume: aliases are not supported in the config file`},
		{"channel: standard\nignore: [GWS3001\n", `.gwsim.yaml:1: not valid YAML: did not find expected ',' or ']'`},
		{"channel: *secretanchor\n", `.gwsim.yaml: not valid YAML: unknown anchor`},
		{"ignore: [GWS9999]\n", `.gwsim.yaml:1: ignore[0]: unknown finding code "GWS9999"`},
		{"validate: loose\n", `.gwsim.yaml:1: validate: "loose" is not one of strict|warn|ignore|true|false`},
		{"\nvalidate: 1\n", `.gwsim.yaml:2: validate: want one of strict|warn|ignore|true|false`},
		{"implementation: envoy\n", `.gwsim.yaml:1: implementation: `},
		{"admission: kube\n", `.gwsim.yaml:1: admission: unknown admission "kube"`},
	}
	for _, tt := range tests {
		dir := writeTree(t, map[string]string{".gwsim.yaml": tt.content})
		_, err := readConfig(filepath.Join(dir, ".gwsim.yaml"))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "secretanchor") {
			t.Errorf("%q: error %v, want it to say %q", tt.content, err, tt.want)
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

// TestConfigFileIsHostile: the config file is picked up from the
// repository under test, so it is read as a manifest is: a link to a
// device or a FIFO is refused without blocking or reading it, a large
// file is refused by its size, and a file that is not a config at all (a
// link to /etc/shadow) gets errors that show none of its text.
func TestConfigFileIsHostile(t *testing.T) {
	secret := "root:$6$c2VjcmV0$aGFzaA:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  string
	}{{
		name:  "link to /dev/zero",
		setup: func(t *testing.T, path string) { symlink(t, "/dev/zero", path) },
		want:  "reading config: .gwsim.yaml: not a regular file: a device",
	}, {
		name: "FIFO",
		setup: func(t *testing.T, path string) {
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
		},
		want: "reading config: .gwsim.yaml: not a regular file: a FIFO",
	}, {
		name:  "larger than the limit",
		setup: func(t *testing.T, path string) { write(t, path, "# "+strings.Repeat("x", maxConfigBytes)+"\n") },
		want:  "reading config: .gwsim.yaml: larger than 1 MiB, the limit for it",
	}, {
		name: "link to a file that is not a config",
		setup: func(t *testing.T, path string) {
			write(t, path+".target", secret)
			symlink(t, path+".target", path)
		},
		want: ".gwsim.yaml:1: not a setting of gwsim; the key is not shown (the settings are admission, assume, channel, controllerNames, failureThreshold, ignore, implementation, severity, validate); " +
			".gwsim.yaml:2: not a setting of gwsim; the key is not shown (the settings are admission, assume, channel, controllerNames, failureThreshold, ignore, implementation, severity, validate)",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"gw.yaml": gatewayYAML, ".git/HEAD": ""})
			tt.setup(t, filepath.Join(root, ".gwsim.yaml"))
			t.Chdir(root)
			// Found, not named: the file a pull request may change.
			got := runCLI(t, Env{}, map[string]string{}, "", "check", "-f", filepath.Join(root, "gw.yaml"))
			want := "gwsim: error: " + tt.want + "\n"
			if got.code != exitUsage || got.stderr != want {
				t.Errorf("exit %d, stderr\n%s\nwant %d,\n%s", got.code, got.stderr, exitUsage, want)
			}
			if strings.Contains(got.stderr, "root") || strings.Contains(got.stderr, "19000") {
				t.Errorf("stderr shows the file's text: %q", got.stderr)
			}
		})
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigMerge checks the merge point: flags win over the file,
// ignore rules add up, and the keys other flags own reach the options.
func TestConfigMerge(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".gwsim.yaml": "ignore: [GWS7001]\nseverity: {GWS1005: error}\nfailureThreshold: warning\n" +
			"controllerNames: [a.example/one, a.example/two]\nchannel: experimental\nassume: none\n" +
			"implementation: envoy-gateway\nadmission: none\n",
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
	if p.Implementation != "envoy-gateway" || p.Admission != "none" {
		t.Errorf("implementation %q, admission %q: want the file's", p.Implementation, p.Admission)
	}

	p = completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--failure-threshold", "error", "--controller-name", "b.example/x")
	if p2 := completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--implementation", "generic", "--admission", "apiserver"); p2.Implementation != "generic" || p2.Admission != "apiserver" {
		t.Errorf("flags given: implementation %q, admission %q; want the flags'", p2.Implementation, p2.Admission)
	}
	if p.Findings.policy.Threshold.String() != "error" || p.ControllerName != "b.example/x" || len(p.ControllerNames) != 1 {
		t.Errorf("flags given: threshold %s, controllers %v; want the flags'", p.Findings.policy.Threshold, p.ControllerNames)
	}

	// --config replaces the search: the file found upward is not read.
	p = completeFlags(t, "-f", filepath.Join(dir, "m/gw.yaml"), "--config", filepath.Join(dir, "other.yaml"))
	if p.Findings.policy.Threshold.String() != "info" || len(p.Findings.policy.Ignores) != 0 || p.Channel != "auto" {
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
		if got.code != exitUsage || !strings.Contains(got.stderr, `.gwsim.yaml:1: severity: GWS3001: unknown severity "fatal"`) {
			t.Errorf("%s with a bad config: exit %d, stderr %q", command, got.code, got.stderr)
		}
	}
	got := runCLI(t, Env{}, map[string]string{"gw.yaml": gatewayYAML}, "", "check", "-f", "@gw.yaml", "--failure-threshold", "notice")
	if want := "gwsim: error: --failure-threshold: unknown severity \"notice\" (valid: error, warning, info)\nRun 'gwsim check --help' for usage.\n"; got.code != exitUsage || got.stderr != want {
		t.Errorf("bad threshold: exit %d, stderr %q, want %q", got.code, got.stderr, want)
	}
	got = runCLI(t, Env{}, map[string]string{"gw.yaml": gatewayYAML}, "", "check", "-f", "@gw.yaml", "--config", "@missing.yaml")
	if got.code != exitUsage || !strings.Contains(got.stderr, "reading config: stat missing.yaml: no such file") {
		t.Errorf("missing --config: exit %d, stderr %q", got.code, got.stderr)
	}
}
