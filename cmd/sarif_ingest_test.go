package cmd

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GitHub code scanning applies rules of its own on top of the SARIF 2.1.0
// schema when it ingests a file ("SARIF support for code scanning" in
// GitHub's docs); one result that breaks them rejects the whole upload.
// githubIngestion checks a log against them and returns every violation.
func githubIngestion(b []byte) []string {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string   `json:"id"`
						Tags []string `json:"-"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
			Invocations        []struct {
				Notifications []struct {
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []ingestResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	var bad []string
	if log.Version != "2.1.0" {
		bad = append(bad, fmt.Sprintf("version %q, want 2.1.0", log.Version))
	}
	if len(log.Runs) == 0 || len(log.Runs) > 20 {
		bad = append(bad, fmt.Sprintf("%d runs, want 1 to 20", len(log.Runs)))
	}
	for _, run := range log.Runs {
		if run.Tool.Driver.Name == "" {
			bad = append(bad, "tool.driver.name is empty")
		}
		if len(run.Results) > 25000 || len(run.Tool.Driver.Rules) > 25000 {
			bad = append(bad, "more than 25,000 results or rules in a run")
		}
		rules := map[string]int{}
		for i, r := range run.Tool.Driver.Rules {
			rules[r.ID] = i
		}
		for i, res := range run.Results {
			for _, p := range res.problems(rules, run.OriginalURIBaseIDs) {
				bad = append(bad, fmt.Sprintf("results[%d] (%s): %s", i, res.RuleID, p))
			}
		}
		for _, inv := range run.Invocations {
			for i, n := range inv.Notifications {
				if strings.TrimSpace(n.Message.Text) == "" {
					bad = append(bad, fmt.Sprintf("toolExecutionNotifications[%d] has no message", i))
				}
			}
		}
	}
	return bad
}

type ingestResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Level     string `json:"level"`
	Message   struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation *struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
			Region *struct {
				StartLine int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
	} `json:"locations"`
}

// problems lists what GitHub rejects in one result: no rule or a rule the
// run does not declare, no message, no location with a file (GitHub reads
// the first location only, and "expected at least one location"), a URI
// that is absolute, climbs out of its base with .., or names a base the
// run does not declare, and a region before line 1.
func (res ingestResult) problems(rules map[string]int, bases map[string]json.RawMessage) []string {
	var bad []string
	i, ok := rules[res.RuleID]
	switch {
	case res.RuleID == "":
		bad = append(bad, "no ruleId")
	case !ok:
		bad = append(bad, "ruleId is not among tool.driver.rules")
	case res.RuleIndex != nil && *res.RuleIndex != i:
		bad = append(bad, fmt.Sprintf("ruleIndex %d is not rule %s's index %d", *res.RuleIndex, res.RuleID, i))
	}
	switch res.Level {
	case "", "none", "note", "warning", "error":
	default:
		bad = append(bad, fmt.Sprintf("level %q", res.Level))
	}
	if strings.TrimSpace(res.Message.Text) == "" {
		bad = append(bad, "no message.text")
	}
	if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil || res.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
		return append(bad, "the first location has no physicalLocation.artifactLocation.uri")
	}
	pl := res.Locations[0].PhysicalLocation
	bad = append(bad, uriProblems(pl.ArtifactLocation.URI, pl.ArtifactLocation.URIBaseID, bases)...)
	if pl.Region != nil && pl.Region.StartLine < 1 {
		bad = append(bad, fmt.Sprintf("region.startLine %d", pl.Region.StartLine))
	}
	return bad
}

func uriProblems(uri, base string, bases map[string]json.RawMessage) []string {
	var bad []string
	u, err := url.Parse(uri)
	switch {
	case err != nil:
		return []string{fmt.Sprintf("uri %q: %v", uri, err)}
	case u.Scheme != "" || u.Host != "" || strings.HasPrefix(uri, "/"):
		bad = append(bad, fmt.Sprintf("uri %q is not relative to the repository", uri))
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == ".." {
			bad = append(bad, fmt.Sprintf("uri %q leaves the repository", uri))
		}
	}
	if _, ok := bases[base]; base != "" && !ok {
		bad = append(bad, fmt.Sprintf("uriBaseId %q is not among originalUriBaseIds", base))
	}
	return bad
}

// TestGitHubIngestionRejects makes sure the check can fail on each rule.
func TestGitHubIngestionRejects(t *testing.T) {
	run := func(result string) string {
		return `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "gwsim", "rules": [{"id": "GWS1"}]}},
			"originalUriBaseIds": {"%SRCROOT%": {}}, "results": [` + result + `]}]}`
	}
	loc := func(uri string) string {
		return `"locations": [{"physicalLocation": {"artifactLocation": {"uri": "` + uri + `", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 1}}}]`
	}
	tests := map[string]string{
		"no location":      `{"ruleId": "GWS1", "message": {"text": "m"}}`,
		"logical only":     `{"ruleId": "GWS1", "message": {"text": "m"}, "locations": [{"logicalLocations": [{"name": "x"}]}]}`,
		"absolute":         `{"ruleId": "GWS1", "message": {"text": "m"}, ` + loc("/work/a.yaml") + `}`,
		"file URI":         `{"ruleId": "GWS1", "message": {"text": "m"}, ` + loc("file:///work/a.yaml") + `}`,
		"dot dot":          `{"ruleId": "GWS1", "message": {"text": "m"}, ` + loc("deploy/../../a.yaml") + `}`,
		"unknown rule":     `{"ruleId": "GWS2", "message": {"text": "m"}, ` + loc("a.yaml") + `}`,
		"no message":       `{"ruleId": "GWS1", "message": {"text": ""}, ` + loc("a.yaml") + `}`,
		"line 0":           `{"ruleId": "GWS1", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.yaml"}, "region": {"startLine": 0}}}]}`,
		"undeclared base":  `{"ruleId": "GWS1", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.yaml", "uriBaseId": "SRC"}}}]}`,
		"wrong rule index": `{"ruleId": "GWS1", "ruleIndex": 3, "message": {"text": "m"}, ` + loc("a.yaml") + `}`,
	}
	for name, res := range tests {
		if len(githubIngestion([]byte(run(res)))) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
	if bad := githubIngestion([]byte(run(`{"ruleId": "GWS1", "message": {"text": "m"}, ` + loc("deploy/a%3Ab.yaml") + `}`))); len(bad) > 0 {
		t.Errorf("a good result is rejected: %v", bad)
	}
}

func checkGitHubIngestion(t *testing.T, name string, b []byte) {
	t.Helper()
	for _, p := range githubIngestion(b) {
		t.Errorf("%s: GitHub would reject: %s", name, p)
	}
}

// TestSARIFRepositoryPaths runs check -o sarif in a repository from a
// subdirectory (a step's working-directory), with -f relative, absolute,
// through ../ and on standard input: every result is located at the file's
// path from the repository root, whatever the working directory and the
// form of -f, and standard input's findings are notifications.
func TestSARIFRepositoryPaths(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".git", "deploy/apps", "tools"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	route := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web, namespace: apps}\nspec:\n  parentRefs: [{name: gw}]\n"
	if err := os.WriteFile(filepath.Join(repo, "deploy/apps/my route.yaml"), []byte(route), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, wd, file string
	}{
		{"relative from the root", ".", "deploy/apps"},
		{"relative from below", "deploy", "apps"},
		{"absolute", "deploy/apps", filepath.Join(repo, "deploy")},
		{"through a sibling", "tools", "../deploy/apps/my route.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(filepath.Join(repo, tt.wd))
			var out, errOut strings.Builder
			code := Execute([]string{"check", "-R", "-f", tt.file, "-o", "sarif"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut})
			if code != exitOK {
				t.Fatalf("exit %d, want 0:\n%s%s", code, out.String(), errOut.String())
			}
			checkGitHubIngestion(t, tt.name, []byte(out.String()))
			if !strings.Contains(out.String(), `"uri": "deploy/apps/my%20route.yaml",`) {
				t.Errorf("no result at deploy/apps/my%%20route.yaml:\n%s", out.String())
			}
		})
	}
	t.Run("stdin", func(t *testing.T) {
		t.Chdir(repo)
		var out, errOut strings.Builder
		Execute([]string{"check", "-f", "-", "-o", "sarif"}, Streams{In: strings.NewReader(route), Out: &out, Err: &errOut})
		checkGitHubIngestion(t, "stdin", []byte(out.String()))
		var log sarifLog
		if err := json.Unmarshal([]byte(out.String()), &log); err != nil {
			t.Fatal(err)
		}
		if len(log.Runs[0].Results) != 0 || len(log.Runs[0].Invocations[0].ToolExecutionNotifications) == 0 {
			t.Errorf("findings on standard input are not all notifications:\n%s", out.String())
		}
	})
}
