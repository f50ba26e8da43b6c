package cmd

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/diag"
)

// TestJUnitFindings checks the shape of check's JUnit report: a testcase
// per object (clean ones pass), objectless findings as a testcase of their
// file or of "(no file)", and the threshold deciding what fails.
func TestJUnitFindings(t *testing.T) {
	fs := sampleFindings() // an assumption (no file), an error on apps/web, a warning on infra/gw
	objects := []checkedObject{
		{Ref: diag.ObjectRef{Kind: "HTTPRoute", Namespace: "apps", Name: "web"}, Source: diag.Source{File: "routes.yaml", Line: 12}},
		{Ref: diag.ObjectRef{Kind: "Service", Namespace: "apps", Name: "api"}, Source: diag.Source{File: "routes.yaml", Line: 30}},
	}
	type tc struct{ Suite, Name, Failure, Out string }
	render := func(threshold diag.Severity) []tc {
		var buf bytes.Buffer
		r := findingsReport{Findings: fs, Objects: objects, Threshold: threshold, Suppressed: []diag.Suppressed{{Finding: fs[0]}}}
		if err := renderFindings(&buf, formatJUnit, r); err != nil {
			t.Fatal(err)
		}
		var doc junitSuites
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("not XML: %v\n%s", err, buf.String())
		}
		var out []tc
		for _, s := range doc.Suites {
			for _, c := range s.Cases {
				got := tc{Suite: s.Name, Name: c.Name}
				if c.SystemOut != nil {
					got.Out = c.SystemOut.Text
				}
				if c.Failure != nil {
					got.Failure = c.Failure.Type + " " + c.Failure.Message
				}
				out = append(out, got)
			}
		}
		if doc.Suites[0].Properties == nil || doc.Suites[0].Properties.Property[0].Value != "1" {
			t.Errorf("the suppressed count is not a property of the first suite")
		}
		return out
	}
	assumed := "info[GWS7001]: assumed 1 object not in the input: GatewayClass gwsim"
	warning := "dir,1/gw:a.yaml:3: warning[GWS1005]: Gateway infra/gw: unknown field \"spec.listners\"\\n100% sure"
	want := []tc{
		{Suite: "(no file)", Name: "(no file)", Out: assumed},
		{Suite: "dir,1/gw:a.yaml", Name: "Gateway infra/gw", Out: warning},
		{Suite: "routes.yaml", Name: "HTTPRoute apps/web", Failure: "GWS3001 1 finding at or above error"},
		{Suite: "routes.yaml", Name: "Service apps/api"},
	}
	if diff := cmp.Diff(want, render(diag.Error)); diff != "" {
		t.Errorf("threshold error (-want +got):\n%s", diff)
	}
	want[0] = tc{Suite: "(no file)", Name: "(no file)", Failure: "GWS7001 1 finding at or above info"}
	want[1] = tc{Suite: "dir,1/gw:a.yaml", Name: "Gateway infra/gw", Failure: "GWS1005 1 finding at or above info"}
	want[2].Failure = "GWS3001 1 finding at or above info"
	if diff := cmp.Diff(want, render(diag.Info)); diff != "" {
		t.Errorf("threshold info (-want +got):\n%s", diff)
	}
}
