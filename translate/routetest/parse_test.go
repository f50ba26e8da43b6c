package routetest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/diag"
)

func TestParse(t *testing.T) {
	in := `apiVersion: gwsim.dev/v1alpha1
kind: RouteTests
tests:
- name: canary
  request:
    url: https://shop.example.com/cart
    headers: {x-beta: 1, Accept: text/html}
    gateway: web
  expect:
    status: 200
    route: shop/storefront#cart
    backends: {shop/cart-v2:8080: 10, shop/cart-v1: 90}
    headers:
      present: {X-B: "", X-A: a}
      absent: [X-Debug]
`
	s, problems := Parse("t.yaml", []byte(in), "infra")
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(s.Tests) != 1 {
		t.Fatalf("tests = %d, want 1", len(s.Tests))
	}
	c := s.Tests[0]
	status := 200
	want := Expect{
		Status: &status,
		Route:  &RouteRef{Namespace: "shop", Name: "storefront", RuleName: "cart"},
		Backends: []WeightedBackend{
			{BackendRef: BackendRef{Namespace: "shop", Name: "cart-v1"}, Weight: 90},
			{BackendRef: BackendRef{Namespace: "shop", Name: "cart-v2", Port: 8080}, Weight: 10},
		},
		Present: []Header{{Name: "X-A", Value: "a"}, {Name: "X-B"}},
		Absent:  []string{"X-Debug"},
	}
	if diff := cmp.Diff(want, c.Expect); diff != "" {
		t.Errorf("expect (-want +got):\n%s", diff)
	}
	if c.Name != "canary" || c.Source != (diag.Source{File: "t.yaml", Line: 4}) {
		t.Errorf("name %q source %v, want canary at t.yaml:4", c.Name, c.Source)
	}
	if got := c.Request; got.Gateway != "infra/web" || got.SNI != "shop.example.com" ||
		!cmp.Equal(got.Headers, http.Header{"X-Beta": {"1"}, "Accept": {"text/html"}}) {
		t.Errorf("request = %+v", got)
	}
}

// TestParseProblems checks that each mistake is reported at its line, with
// the path of its field, and that every problem of a file is reported.
func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{{
		name: "empty file",
		in:   "",
		want: []string{"t.yaml: tests: no tests: the file needs a list of tests, each with a name, a request and what to expect"},
	}, {
		name: "syntax error",
		in:   "tests:\n- name: [\n",
		want: []string{"t.yaml:2: did not find expected node content"},
	}, {
		name: "unknown field, with the valid ones",
		in:   "tests:\n- name: a\n  request: {url: http://a/}\n  expect: {stauts: 200}\n",
		want: []string{"t.yaml:4: tests[0].expect.stauts: unknown field (valid: outcome, status, location, route, backend, backends, path, host, headers, responseHeaders)"},
	}, {
		name: "wrong types",
		in:   "tests:\n- name: a\n  request:\n    url: http://a/\n    port: eighty\n  expect:\n    status: 200\n- name: [b]\n",
		want: []string{
			`t.yaml:5: tests[0].request.port: want a whole number, got "eighty"`,
			"t.yaml:8: tests[1].name: want a string, got a list",
		},
	}, {
		name: "tests is not a list",
		in:   "tests: 3\n",
		want: []string{`t.yaml:1: tests: want a list, got "3"`},
	}, {
		name: "wrong apiVersion and kind",
		in:   "apiVersion: v1\nkind: Pod\ntests:\n- name: a\n  request: {url: http://a/}\n  expect: {status: 200}\n",
		want: []string{
			"t.yaml:1: apiVersion: want gwsim.dev/v1alpha1, or nothing",
			"t.yaml:2: kind: want RouteTests, or nothing",
		},
	}, {
		name: "every problem of every test",
		in: `tests:
- name: a
  request: {url: "http://a/", headers: {"X A": "1"}}
  expect: {status: 1000}
- name: a
  request: {method: GET}
  expect: {route: "a/b#", backend: "a", backends: {"a/b:0": 1, "a/c": -1}}
- request: {url: "http://a/"}
  expect: {}
`,
		want: []string{
			`t.yaml:3: tests[0].request.url: invalid header name "X A"`,
			"t.yaml:4: tests[0].expect.status: status 1000 is not an HTTP status (0 means no HTTP answer)",
			`t.yaml:5: tests[1].name: another test has the name "a"`,
			"t.yaml:6: tests[1].request.url: a request needs a url",
			`t.yaml:7: tests[1].expect.route: route "a/b#": no rule after #: want a rule index or name`,
			`t.yaml:7: tests[1].expect.backend: backend "a": want namespace/name or namespace/name:port`,
			`t.yaml:7: tests[1].expect.backends.a/b:0: backend "a/b:0": port "0" is not a number from 1 to 65535`,
			"t.yaml:7: tests[1].expect.backends.a/c: weight -1: a backend in a split has a weight above 0 (leave out those that get no requests)",
			"t.yaml:8: tests[2].name: a test needs a name",
			"t.yaml:9: tests[2].expect: nothing to check: set outcome, status, location, route, backend, backends, path, host, headers or responseHeaders",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := Parse("t.yaml", []byte(tt.in), "default")
			var got []string
			for _, p := range problems {
				s := p.Source.String() + ": "
				if p.Field != "" {
					s += p.Field + ": "
				}
				got = append(got, s+p.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefs(t *testing.T) {
	one := 1
	tests := []struct {
		in      string
		route   RouteRef
		backend BackendRef
		err     string
	}{
		{in: "ns/name", route: RouteRef{Namespace: "ns", Name: "name"}, backend: BackendRef{Namespace: "ns", Name: "name"}},
		{in: "ns/name#1", route: RouteRef{Namespace: "ns", Name: "name", Rule: &one}},
		{in: "ns/name#cart", route: RouteRef{Namespace: "ns", Name: "name", RuleName: "cart"}},
		{in: "ns/name:8080", backend: BackendRef{Namespace: "ns", Name: "name", Port: 8080}},
		{in: "name", err: "want namespace/name"},
		{in: "/name", err: "want namespace/name"},
		{in: "a/b/c", err: "want namespace/name"},
		{in: "ns/name#-1", err: "rule index -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			switch {
			case strings.Contains(tt.in, ":"):
				got, err := parseBackendRef(tt.in)
				check(t, got, tt.backend, err, tt.err)
			case tt.route.Name != "" || strings.Contains(tt.in, "#"):
				got, err := parseRouteRef(tt.in)
				check(t, got, tt.route, err, tt.err)
				if err == nil && got.String() != tt.in {
					t.Errorf("String() = %q, want %q", got.String(), tt.in)
				}
			default:
				_, rerr := parseRouteRef(tt.in)
				got, err := parseBackendRef(tt.in)
				check(t, got, tt.backend, err, tt.err)
				if (rerr == nil) != (err == nil) {
					t.Errorf("route and backend disagree: %v vs %v", rerr, err)
				}
			}
		})
	}
}

func check[T any](t *testing.T, got, want T, err error, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("error = %v, want one containing %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
