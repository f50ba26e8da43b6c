package diag

import (
	"strings"
	"testing"
)

func TestUnused(t *testing.T) {
	route := ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "legacy"}
	gw := ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "edge"}
	fs := []Finding{{Code: "GWS3001", Object: route}, {Code: "GWS6007", Object: gw}}
	sources := Sources{route: {File: "a.yaml", Line: 3}, gw: {File: "a.yaml", Line: 9}}
	rule := func(s string) Ignore {
		ig, err := ParseIgnore(s, "--ignore")
		if err != nil {
			t.Fatal(err)
		}
		return ig
	}
	rules := []Ignore{
		rule("GWS3001"),                       // used
		rule("GWS6007:gateway/infra/edge"),    // used, kind in another case
		rule("GWS6007:Gateway/infra/edgee"),   // typo
		rule("GWS5005"),                       // no such finding
		rule(unusedCode),                      // never reported
		rule("GWS3001:HTTPRoute/shop/legacy"), // used
	}
	annotated := map[ObjectRef][]string{route: {"GWS3001", "GWS6007"}}
	got := Unused(fs, rules, annotated, sources)
	want := []string{
		`suppression "GWS6007:Gateway/infra/edgee" from --ignore matches no finding; it suppresses nothing (the input holds no Gateway infra/edgee)`,
		`suppression "GWS5005" from --ignore matches no finding; it suppresses nothing`,
		`gwsim.dev/ignore lists GWS6007, but the object has no GWS6007 finding; it suppresses nothing`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, f := range got {
		if f.Message != want[i] || f.Severity != Warning || f.Reason != ReasonUnusedSuppression {
			t.Errorf("finding %d: %s %s %q, want warning %q", i, f.Severity, f.Reason, f.Message, want[i])
		}
	}
	if last := got[2]; last.Object != route || last.Source.Line != 3 || !strings.Contains(last.Field, IgnoreAnnotation) {
		t.Errorf("annotation finding at %+v %+v %q", last.Object, last.Source, last.Field)
	}
	if c, ok := LookupCode(unusedCode); !ok || c.Reason != ReasonUnusedSuppression {
		t.Errorf("%s is not the code of %s", unusedCode, ReasonUnusedSuppression)
	}
}
