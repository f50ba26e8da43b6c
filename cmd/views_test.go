package cmd

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate"
)

func TestConditionsCell(t *testing.T) {
	tests := []struct {
		name string
		in   []translate.ConditionSummary
		want string
	}{
		{"none", nil, "-"},
		{"normal True by type, normal False left out", []translate.ConditionSummary{
			{Type: "Accepted", Status: "True", Normal: true}, {Type: "Conflicted", Status: "False", Normal: true}},
			"Accepted"},
		{"problems with status and reason", []translate.ConditionSummary{
			{Type: "Accepted", Status: "True", Normal: true}, {Type: "ResolvedRefs", Status: "False", Reason: "BackendNotFound"},
			{Type: "Conflicted", Status: "True", Reason: "HostnameConflict"}},
			"Accepted, ResolvedRefs=False (BackendNotFound), Conflicted=True (HostnameConflict)"},
	}
	for _, tt := range tests {
		if got := conditionsCell(tt.in); got != tt.want {
			t.Errorf("%s: conditionsCell() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestViewsCLI runs the tables' flags end to end: filters, --no-headers,
// the status table, and the usage errors a malformed filter gets.
func TestViewsCLI(t *testing.T) {
	files := map[string]string{"gw.yaml": gatewayYAML + "---\n" + classYAML + "---\n" + routeYAML + "---\n" + serviceYAML}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"routes of one gateway without headers", []string{"routes", "-f", "@gw.yaml", "--gateway", "default/gw", "--no-headers"}, 0,
			"default/gw  80/HTTP  example.com  PathPrefix /api  HTTPRoute default/web#0  default/api:8080\n"},
		{"a host no route serves", []string{"routes", "-f", "@gw.yaml", "--host", "other.example.org"}, 0,
			"No routes match the filters.\n"},
		{"another route", []string{"routes", "-f", "@gw.yaml", "--route", "default/other", "-o", "json"}, 0,
			"{\n  \"routes\": []\n}\n"},
		{"status table", []string{"status", "-f", "@gw.yaml", "-o", "table"}, 0, "" +
			"KIND          NAME         PART                     HEALTH   CONDITIONS\n" +
			"Gateway       default/gw   -                        Healthy  Accepted, Programmed, ResolvedRefs\n" +
			"Gateway       default/gw   listener http (1 route)  Healthy  Accepted, Programmed, ResolvedRefs\n" +
			"GatewayClass  gwsim        -                        Healthy  Accepted, SupportedVersion\n" +
			"HTTPRoute     default/web  parent gw                Healthy  Accepted, ResolvedRefs\n"},
		{"malformed gateway filter", []string{"routes", "-f", "@gw.yaml", "--gateway", "gw"}, 2, ""},
		{"malformed route filter", []string{"routes", "-f", "@gw.yaml", "--route", "a/b/c"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, Env{}, files, "", tt.args...)
			if got.code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", got.code, tt.wantCode, got.stderr)
			}
			if diff := cmp.Diff(tt.want, got.stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
	got := runCLI(t, Env{}, files, "", "routes", "-f", "@gw.yaml", "--gateway", "gw")
	if want := "gwsim: error: --gateway \"gw\": want namespace/name\nRun 'gwsim routes --help' for usage.\n"; got.stderr != want {
		t.Errorf("stderr = %q, want %q", got.stderr, want)
	}
}
