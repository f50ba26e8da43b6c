package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gwsim/gwsim/diag"
)

// sarifSchemaFile is the SARIF 2.1.0 schema (rtm.5, the version SARIF
// consumers validate against), copied from the @microsoft/jest-sarif npm
// package (MIT), which ships it for the same purpose.
const sarifSchemaFile = "testdata/sarif-2.1.0-rtm.5.json"

func loadSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarifSchemaFile, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, name string, out []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", name, err, out)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s: not valid SARIF 2.1.0: %v", name, err)
	}
}

// TestSARIFValidates checks gwsim's SARIF against the published schema:
// a report with every kind of location (file and line, file alone, object
// alone, none) and both kinds of suppression, and the SARIF golden files.
func TestSARIFValidates(t *testing.T) {
	schema := loadSARIFSchema(t)
	fs := sampleFindings()
	fs = append(fs, diag.WithCodes([]diag.Finding{{Severity: diag.Error, Source: diag.Source{File: "<stdin>"}, Reason: diag.ReasonParseError, Message: "cannot read"}})...)
	r := findingsReport{Findings: fs[1:], Suppressed: []diag.Suppressed{
		{Finding: fs[0], By: "--ignore GWS7001"},
		{Finding: fs[1], By: "annotation gwsim.dev/ignore", InSource: true},
	}}
	var buf bytes.Buffer
	if err := renderFindings(&buf, formatSARIF, r); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, schema, "sample report", buf.Bytes())
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	// The finding on <stdin> and the one without a file are the run's
	// notifications; the others are results at their files.
	if got, notes := len(log.Runs[0].Results), len(log.Runs[0].Invocations[0].ToolExecutionNotifications); got != 3 || notes != 2 {
		t.Errorf("%d results and %d notifications, want 3 (2 findings, 1 suppressed) and 2", got, notes)
	}
	checkGitHubIngestion(t, "sample report", buf.Bytes())
	for _, res := range log.Runs[0].Results {
		if rule := log.Runs[0].Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID || !strings.HasSuffix(rule.HelpURI, "#"+strings.ToLower(res.RuleID)) {
			t.Errorf("result %s points at rule %s (%s)", res.RuleID, rule.ID, rule.HelpURI)
		}
	}

	golden, err := filepath.Glob("../golden/*/check-sarif*.txt")
	if err != nil || len(golden) == 0 {
		t.Fatalf("no SARIF golden files: %v", err)
	}
	for _, g := range golden {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		// A check transcript is stdout (the log), then stderr and the
		// exit code: validate the first JSON value.
		var log json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(b)).Decode(&log); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		validateSARIF(t, schema, g, log)
		checkGitHubIngestion(t, g, log)
	}
}

// TestSARIFSchemaRejects makes sure the validation can fail: a log
// without its version is not SARIF.
func TestSARIFSchemaRejects(t *testing.T) {
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"runs": []}`))
	if loadSARIFSchema(t).Validate(doc) == nil {
		t.Error("a log without version validated")
	}
}
