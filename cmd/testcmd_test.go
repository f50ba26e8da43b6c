package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/routetest"
)

// testFiles are explainFiles (example.com/api goes to Service api) and
// cases files about them.
func testFiles() map[string]string {
	files := explainFiles()
	files["pass.yaml"] = "apiVersion: " + routetest.APIVersion + "\nkind: " + routetest.Kind + `
tests:
- name: api
  request: {url: http://example.com/api/x}
  expect: {route: default/web#0, backend: default/api:8080, status: 200}
`
	files["fail.yaml"] = `tests:
- name: api
  request: {url: http://example.com/apis}
  expect: {status: 200}
`
	files["malformed.yaml"] = "tests:\n- name: a\n  request: {url: http://example.com/}\n  expect: {satus: 200}\n"
	return files
}

func TestTestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"all pass", []string{"--cases", "@pass.yaml"}, exitOK},
		{"all pass, json, coverage", []string{"--cases", "@pass.yaml", "-o", "json", "--coverage"}, exitOK},
		{"at the coverage floor", []string{"--cases", "@pass.yaml", "--fail-under", "100"}, exitOK},
		{"a test fails", []string{"--cases", "@fail.yaml"}, exitFindings},
		{"below the coverage floor", []string{"--cases", "@fail.yaml", "--fail-under", "1"}, exitFindings},
		{"no cases", nil, exitUsage},
		{"cases file missing", []string{"--cases", "@nope.yaml"}, exitUsage},
		{"malformed cases file", []string{"--cases", "@malformed.yaml"}, exitUsage},
		{"fail-under out of range", []string{"--cases", "@pass.yaml", "--fail-under", "101"}, exitUsage},
		{"yaml is not a test format", []string{"--cases", "@pass.yaml", "-o", "yaml"}, exitUsage},
		{"a positional argument", []string{"--cases", "@pass.yaml", "pass.yaml"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"test", "-f", "@all.yaml"}, tt.args...)
			got := runCLI(t, Env{}, testFiles(), "", args...)
			if got.code != tt.want {
				t.Errorf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, tt.want, got.stdout, got.stderr)
			}
		})
	}
}

func TestTestText(t *testing.T) {
	got := runCLI(t, Env{}, testFiles(), "", "test", "-f", "@all.yaml", "--cases", "@fail.yaml", "--coverage")
	want := `FAIL  api (fail.yaml:2)
      - status: want 200, got 404

      Request: GET http://example.com/apis

      1. Gateway default/gw (all.yaml:8) takes port 80
      2. Listener http (80/HTTP, any hostname) takes host example.com
      3. Virtual host example.com

      Answer: route_not_found (404): no route of virtual host example.com matches

      Near misses, nearest first:
      1. HTTPRoute default/web (all.yaml:19), parentRef 0, rule 0 match 0 (PathPrefix /api): 1 condition failed
         - path: PathPrefix /api does not match /apis: a prefix matches whole path segments (/api or /api/...)

1 test: 0 passed, 1 failed

Coverage: 0 of 1 route matches (0%), 0 of 1 rules
Not exercised by any test:
- HTTPRoute default/web (all.yaml:19) rule 0 match 0: PathPrefix /api
`
	if diff := cmp.Diff(want, got.stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if got.stderr != "" || got.code != exitFindings {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", got.code, got.stderr)
	}
}

func TestTestJSON(t *testing.T) {
	got := runCLI(t, Env{}, testFiles(), "", "test", "-f", "@all.yaml", "--cases", "@pass.yaml", "-o", "json", "--coverage")
	var report struct {
		Tests []struct {
			Name, Source string
			Passed       bool
			Trace        *json.RawMessage
		}
		Passed, Failed int
		Coverage       struct{ Matches, Covered int }
	}
	if err := json.Unmarshal([]byte(got.stdout), &report); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, got.stdout)
	}
	if len(report.Tests) != 1 || !report.Tests[0].Passed || report.Tests[0].Source != "pass.yaml:4" || report.Tests[0].Trace != nil {
		t.Errorf("tests = %+v", report.Tests)
	}
	if report.Passed != 1 || report.Failed != 0 || report.Coverage.Matches != 1 || report.Coverage.Covered != 1 {
		t.Errorf("report = %+v", report)
	}
}

// TestCasesFileProblems: a malformed cases file names file:line on stderr
// in compiler format, and nothing is run.
func TestCasesFileProblems(t *testing.T) {
	got := runCLI(t, Env{}, testFiles(), "", "test", "-f", "@all.yaml", "--cases", "@malformed.yaml")
	want := "malformed.yaml:4: error: tests[0].expect.satus: unknown field (valid: outcome, status, location, route, backend, backends, path, host, headers, responseHeaders)\n"
	if got.stdout != "" || got.stderr != want || got.code != exitUsage {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit 2, stderr %q", got.code, got.stdout, got.stderr, want)
	}
}

// TestCasesFileAmongManifests: a cases file that declares its apiVersion
// and kind can sit in the manifests directory; the loader skips it
// without a finding.
func TestCasesFileAmongManifests(t *testing.T) {
	files := testFiles()
	delete(files, "fail.yaml")
	delete(files, "malformed.yaml")
	got := runCLI(t, Env{}, files, "", "check", "-f", "@.")
	if got.code != exitOK || strings.Contains(got.stdout, "ignored") {
		t.Errorf("check exit %d, stdout:\n%s\nstderr:\n%s", got.code, got.stdout, got.stderr)
	}
	got = runCLI(t, Env{}, files, "", "test", "-f", "@.", "--cases", "@pass.yaml")
	if got.code != exitOK {
		t.Errorf("test exit %d, stdout:\n%s\nstderr:\n%s", got.code, got.stdout, got.stderr)
	}
}
