package conformance

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChildOutput(t *testing.T) {
	out := `=== RUN   TestUpstreamSuiteChild
=== RUN   TestUpstreamSuiteChild/HTTPRouteMatching
=== PAUSE TestUpstreamSuiteChild/HTTPRouteMatching
=== RUN   TestUpstreamSuiteChild/MeshBasic
    upstream_test.go:120: mesh: checks a service mesh
=== RUN   TestUpstreamSuiteChild/GatewayModifyListeners
    helpers.go:10: waiting for listeners
    helpers.go:11: timed out
=== CONT  TestUpstreamSuiteChild/HTTPRouteMatching
    http.go:5: request ok
=== NAME  TestUpstreamSuiteChild/GatewayModifyListeners
    helpers.go:12: still failing
=== RUN   TestUpstreamSuiteChild/HTTPRouteMatching/0_request_to_/
--- FAIL: TestUpstreamSuiteChild (3.00s)
    --- SKIP: TestUpstreamSuiteChild/MeshBasic (0.00s)
    --- FAIL: TestUpstreamSuiteChild/GatewayModifyListeners (2.00s)
    --- PASS: TestUpstreamSuiteChild/HTTPRouteMatching (0.10s)
        --- PASS: TestUpstreamSuiteChild/HTTPRouteMatching/0_request_to_/ (0.00s)
`
	got, err := parseChildOutput(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*TestResult{
		"HTTPRouteMatching":      {Name: "HTTPRouteMatching", Outcome: Passed, Log: []string{"    http.go:5: request ok"}},
		"MeshBasic":              {Name: "MeshBasic", Outcome: Skipped, Reason: "mesh: checks a service mesh", Log: []string{"    upstream_test.go:120: mesh: checks a service mesh"}},
		"GatewayModifyListeners": {Name: "GatewayModifyListeners", Outcome: Failed, Log: []string{"    helpers.go:10: waiting for listeners", "    helpers.go:11: timed out", "    helpers.go:12: still failing"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseChildOutput (-want +got):\n%s", diff)
	}
}

func TestParseExpectedFailures(t *testing.T) {
	got, err := parseExpectedFailures(strings.NewReader("# comment\n\nGatewayStaticAddresses: static address pools\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"GatewayStaticAddresses": "static address pools"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"NoReason\n", "NoReason:\n", "A: x\nA: y\n"} {
		if _, err := parseExpectedFailures(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var buf bytes.Buffer
	writeTable(&buf, []TestResult{
		{Name: "B", Outcome: Failed, Reason: "a | b"},
		{Name: "A", Outcome: Passed},
		{Name: "C", Outcome: Skipped, Reason: "mesh: x"},
	})
	want := "| test | result | reason |\n| --- | --- | --- |\n| A | pass |  |\n| B | fail | a \\| b |\n| C | skip | mesh: x |\n\nconformance: 1 passed, 1 failed, 1 skipped\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
