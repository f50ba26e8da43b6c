package routetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/translatetest"
)

// world is a Gateway with two HTTP listeners and one route attached to
// both: rule 0 ("api") has two matches, rule 1 takes the rest.
const world = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/c}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: ns}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: alt, protocol: HTTP, port: 8080}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: ns}
spec:
  parentRefs: [{name: gw}]
  rules:
  - name: api
    matches: [{path: {type: PathPrefix, value: /api}}, {path: {type: PathPrefix, value: /v2}}]
    backendRefs: [{name: svc, port: 80}]
  - backendRefs: [{name: svc, port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: ns}
spec:
  ports: [{port: 80}]`

// testInput translates documents; each object's source is w.yaml at its
// document's index.
func testInput(t *testing.T, docs string) explain.Input {
	t.Helper()
	in, objs := translatetest.Decode(t, "w.yaml", docs)
	return explain.NewInput(translate.Translate(in, translate.Options{}), objs, in.Sources)
}

func TestRun(t *testing.T) {
	in := testInput(t, world)
	suite, problems := Parse("t.yaml", []byte(`tests:
- name: api on port 80
  request: {url: http://a/api/x}
  expect: {route: ns/r#api, backend: ns/svc:80}
- name: api on port 8080, the same match
  request: {url: http://a:8080/api/y}
  expect: {route: ns/r#0}
- name: wrong expectation
  request: {url: http://a/}
  expect: {status: 404}
`), "ns")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	r := Run(in, suite, Options{FailUnder: 60})
	if r.Passed != 2 || r.Failed != 1 || r.OK() {
		t.Errorf("passed %d failed %d OK %v, want 2, 1, false", r.Passed, r.Failed, r.OK())
	}
	for _, res := range r.Tests {
		if (res.Trace == nil) != res.Passed {
			t.Errorf("%s: passed %v, trace %v: want a trace for failed tests only", res.Name, res.Passed, res.Trace != nil)
		}
	}
	if got := r.Tests[2]; got.Source != "t.yaml:8" || got.Status != 200 || len(got.Failures) != 1 {
		t.Errorf("failed test = %+v", got)
	}
	wantCov := &Coverage{
		Matches: 3, Covered: 2, Percent: 66.6, Rules: 2, RulesCovered: 2, FailUnder: 60,
		Uncovered: []explain.RouteStep{{
			Object: explain.Ref{Kind: "HTTPRoute", Namespace: "ns", Name: "r", Source: "w.yaml:3"},
			Rule:   0, RuleName: "api", Match: 1, Spec: r.Coverage.Uncovered[0].Spec,
		}},
	}
	if diff := cmp.Diff(wantCov, r.Coverage); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
	if r.Coverage.Uncovered[0].Spec.Path != "/v2" {
		t.Errorf("uncovered match = %+v, want PathPrefix /v2", r.Coverage.Uncovered[0].Spec)
	}
}

func TestRunFailUnder(t *testing.T) {
	in := testInput(t, world)
	suite, _ := Parse("t.yaml", []byte("tests:\n- name: a\n  request: {url: http://a/}\n  expect: {status: 200}\n"), "ns")
	tests := []struct {
		name      string
		opts      Options
		coverage  bool
		below, ok bool
	}{
		{"no coverage asked", Options{}, false, false, true},
		{"coverage without a floor", Options{Coverage: true}, true, false, true},
		{"at the floor", Options{FailUnder: 100.0 / 3}, true, false, true},
		{"below the floor", Options{FailUnder: 34}, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(in, suite, tt.opts)
			if (r.Coverage != nil) != tt.coverage {
				t.Fatalf("coverage %v, want %v", r.Coverage != nil, tt.coverage)
			}
			if r.Coverage != nil && r.Coverage.Below != tt.below {
				t.Errorf("below = %v, want %v (%+v)", r.Coverage.Below, tt.below, r.Coverage)
			}
			if r.OK() != tt.ok {
				t.Errorf("OK = %v, want %v", r.OK(), tt.ok)
			}
		})
	}
}

func TestCoverageOfNothing(t *testing.T) {
	c := coverage(explain.Input{}, nil)
	if c.Matches != 0 || c.Percent != 100 {
		t.Errorf("coverage of an empty data plane = %+v, want 0 matches at 100%%", c)
	}
}
