package cmd

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/diag"
)

func sampleFindings() []diag.Finding {
	return diag.WithCodes([]diag.Finding{
		{Severity: diag.Info, Reason: diag.ReasonAssumed, Message: "assumed 1 object not in the input: GatewayClass gwsim"},
		{
			Severity: diag.Error,
			Object:   diag.ObjectRef{Kind: "HTTPRoute", Namespace: "apps", Name: "web"},
			Source:   diag.Source{File: "routes.yaml", Line: 12},
			Field:    "spec.rules[0].backendRefs[1]",
			Reason:   "BackendNotFound",
			Message:  "Service apps/api does not exist",
		},
		{
			Severity: diag.Warning,
			Object:   diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "gw"},
			Source:   diag.Source{File: "dir,1/gw:a.yaml", Line: 3},
			Reason:   diag.ReasonUnknownField,
			Message:  "unknown field \"spec.listners\"\n100% sure",
		},
	})
}

func sampleReport() findingsReport {
	fs := sampleFindings()
	return findingsReport{Findings: fs[:2], Suppressed: []diag.Suppressed{{Finding: fs[2], By: "--ignore GWS1005"}}}
}

func TestRenderFindings(t *testing.T) {
	tests := []struct {
		name string
		f    format
		in   findingsReport
		want string
	}{
		{"text, none", formatText, findingsReport{}, "0 errors, 0 warnings, 0 infos\n"},
		{"text", formatText, findingsReport{Findings: sampleFindings()}, "" +
			"info[GWS7001]: assumed 1 object not in the input: GatewayClass gwsim\n" +
			"routes.yaml:12: error[GWS3001]: HTTPRoute apps/web: spec.rules[0].backendRefs[1]: Service apps/api does not exist\n" +
			"dir,1/gw:a.yaml:3: warning[GWS1005]: Gateway infra/gw: unknown field \"spec.listners\"\\n100% sure\n" +
			"1 error, 1 warning, 1 info\n"},
		{"text, suppressed", formatText, sampleReport(), "" +
			"info[GWS7001]: assumed 1 object not in the input: GatewayClass gwsim\n" +
			"routes.yaml:12: error[GWS3001]: HTTPRoute apps/web: spec.rules[0].backendRefs[1]: Service apps/api does not exist\n" +
			"1 error, 0 warnings, 1 info, 1 suppressed\n"},
		{"github", formatGitHub, findingsReport{Findings: sampleFindings()}, "" +
			"::notice title=GWS7001 Assumed::assumed 1 object not in the input: GatewayClass gwsim\n" +
			"::error file=routes.yaml,line=12,title=GWS3001 BackendNotFound::HTTPRoute apps/web: spec.rules[0].backendRefs[1]: Service apps/api does not exist\n" +
			"::warning file=dir%2C1/gw%3Aa.yaml,line=3,title=GWS1005 UnknownField::Gateway infra/gw: unknown field \"spec.listners\"\\n100%25 sure\n" +
			"1 error, 1 warning, 1 info\n"},
		{"json, none", formatJSON, findingsReport{}, `{
  "findings": [],
  "suppressed": [],
  "summary": {
    "errors": 0,
    "warnings": 0,
    "infos": 0,
    "suppressed": 0
  }
}
`},
		{"json", formatJSON, findingsReport{Findings: sampleFindings()[1:2], Suppressed: sampleReport().Suppressed}, `{
  "findings": [
    {
      "code": "GWS3001",
      "severity": "error",
      "object": {
        "kind": "HTTPRoute",
        "namespace": "apps",
        "name": "web"
      },
      "source": {
        "file": "routes.yaml",
        "line": 12
      },
      "field": "spec.rules[0].backendRefs[1]",
      "reason": "BackendNotFound",
      "message": "Service apps/api does not exist"
    }
  ],
  "suppressed": [
    {
      "code": "GWS1005",
      "severity": "warning",
      "object": {
        "kind": "Gateway",
        "namespace": "infra",
        "name": "gw"
      },
      "source": {
        "file": "dir,1/gw:a.yaml",
        "line": 3
      },
      "reason": "UnknownField",
      "message": "unknown field \"spec.listners\"\n100% sure",
      "suppressedBy": "--ignore GWS1005"
    }
  ],
  "summary": {
    "errors": 1,
    "warnings": 0,
    "infos": 0,
    "suppressed": 1
  }
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := renderFindings(&buf, tt.f, tt.in); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("renderFindings() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaryString(t *testing.T) {
	tests := []struct {
		in   summary
		want string
	}{
		{summary{}, "0 errors, 0 warnings, 0 infos"},
		{summary{Errors: 1, Warnings: 1, Infos: 1}, "1 error, 1 warning, 1 info"},
		{summary{Errors: 2, Warnings: 3, Infos: 4}, "2 errors, 3 warnings, 4 infos"},
		{summary{Suppressed: 2}, "0 errors, 0 warnings, 0 infos, 2 suppressed"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}
