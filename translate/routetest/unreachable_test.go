package routetest

import (
	"strings"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// TestCoverageMarksDeadMatchesUnreachable adds a second route whose only
// match repeats the first route's /api: the older route wins, so the copy
// can take no request. It is listed as unreachable, not as untested, and
// is left out of the count.
func TestCoverageMarksDeadMatchesUnreachable(t *testing.T) {
	copyRoute := `
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: z-copy, namespace: ns}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches: [{path: {type: PathPrefix, value: /api}}]
    backendRefs: [{name: svc, port: 80}]`
	in := testInput(t, world+copyRoute)
	suite, problems := Parse("t.yaml", []byte("tests:\n- name: api\n  request: {url: http://a/api}\n  expect: {route: ns/r#api}\n"), "ns")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	c := Run(in, suite, Options{Coverage: true}).Coverage
	if c.Matches != 3 || c.Covered != 1 || len(c.Uncovered) != 2 {
		t.Errorf("matches %d covered %d uncovered %d, want 3, 1, 2 (the dead copy is not counted)", c.Matches, c.Covered, len(c.Uncovered))
	}
	if len(c.Unreachable) != 1 {
		t.Fatalf("unreachable = %+v, want the copy's match", c.Unreachable)
	}
	u := c.Unreachable[0]
	want := ir.Origin{Kind: "HTTPRoute", Namespace: "ns", Name: "r", Rule: 0, Match: 0}
	if u.Object.Name != "z-copy" || u.ShadowedBy != want {
		t.Errorf("unreachable = %+v, want ns/z-copy shadowed by %+v", u, want)
	}
	for _, s := range c.Uncovered {
		if strings.Contains(s.Object.Name, "copy") {
			t.Errorf("the dead match is also listed as uncovered: %+v", s)
		}
	}
}
