package explain

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

func TestDescribeMismatch(t *testing.T) {
	tests := []struct {
		m    evaluate.Mismatch
		want string
	}{
		{evaluate.Mismatch{Condition: evaluate.CondPath, Type: "PathPrefix", Want: "/api", Got: "/apis"},
			"PathPrefix /api does not match /apis: a prefix matches whole path segments (/api or /api/...)"},
		{evaluate.Mismatch{Condition: evaluate.CondPath, Type: "PathPrefix", Want: "/api/", Got: "/apis"},
			"PathPrefix /api/ does not match /apis: a prefix matches whole path segments (/api or /api/...)"},
		{evaluate.Mismatch{Condition: evaluate.CondPath, Type: "PathPrefix", Want: "/cart", Got: "/pay"},
			"PathPrefix /cart does not match /pay"},
		{evaluate.Mismatch{Condition: evaluate.CondPath, Type: "Exact", Want: "/a", Got: "/a/"},
			"Exact /a does not match /a/ (the trailing slash differs)"},
		{evaluate.Mismatch{Condition: evaluate.CondPath, Type: "RegularExpression", Want: "/v[0-9]", Got: "/v10"},
			"RegularExpression /v[0-9] does not match /v10 (it must match the whole path)"},
		{evaluate.Mismatch{Condition: evaluate.CondMethod, Want: "POST", Got: "GET"},
			"POST required; the request is GET"},
		{evaluate.Mismatch{Condition: evaluate.CondHeader, Name: "X-A", Type: "Exact", Want: "1", Missing: true},
			"X-A: 1 required; the request has no X-A header"},
		{evaluate.Mismatch{Condition: evaluate.CondHeader, Name: "X-A", Type: "RegularExpression", Want: "[0-9]+", Got: "x"},
			"X-A matching [0-9]+ required; the request has X-A: x"},
		{evaluate.Mismatch{Condition: evaluate.CondQueryParam, Name: "v", Type: "Exact", Want: "2", Got: "1"},
			"v=2 required; the request has v=1"},
	}
	for _, tt := range tests {
		got := describeMismatch(tt.m)
		if got.Message != tt.want || string(got.Condition) != string(tt.m.Condition) {
			t.Errorf("describeMismatch(%+v) = %s %q, want %q", tt.m, got.Condition, got.Message, tt.want)
		}
	}
}

// Each HTTP precedence rule decides when the ones before it tie, and the
// decision is the same whichever route is asked about first.
func TestHTTPDecision(t *testing.T) {
	prefix := func(p string) ir.Match { return ir.Match{PathType: "PathPrefix", Path: p} }
	withMethod := prefix("/a")
	withMethod.Method = "GET"
	withHeader := prefix("/a")
	withHeader.Headers = []ir.ValueMatch{{Name: "x", Type: "Exact", Value: "1"}}
	withQuery := prefix("/a")
	withQuery.QueryParams = []ir.ValueMatch{{Name: "q", Type: "Exact", Value: "1"}}
	tests := []struct {
		win, lose ir.Match
		want      string
	}{
		{ir.Match{PathType: "Exact", Path: "/a"}, prefix("/abc"), "path match type: Exact /a ranks before PathPrefix /abc (Exact, then RegularExpression, then PathPrefix)"},
		{prefix("/abc"), prefix("/a"), "longer path: /abc (4 characters) before /a (2)"},
		{withMethod, withHeader, "method: a match on method GET before a match on any method"},
		{withHeader, withQuery, "more header matches: 1 before 0"},
		{withQuery, prefix("/a"), "more query parameter matches: 1 before 0"},
		{prefix("/a"), prefix("/a"), ""},
	}
	for _, tt := range tests {
		if got := httpDecision(tt.win, tt.lose).Message; got != tt.want {
			t.Errorf("httpDecision(%+v, %+v) = %q, want %q", tt.win, tt.lose, got, tt.want)
		}
		if (httpDecision(tt.lose, tt.win).Code == "") != (tt.want == "") {
			t.Errorf("httpDecision is not symmetric in whether a rule decides for %+v, %+v", tt.win, tt.lose)
		}
	}
}

func TestTieBreak(t *testing.T) {
	a := &route{ref: routeRef("ns", "a")}
	b := &route{ref: routeRef("ns", "b")}
	tests := []struct {
		name   string
		x, y   *route
		xo, yo ir.Origin
		want   string
	}{
		{"by name", a, b, origin("a", 0, 0), origin("b", 0, 0), "equal specificity and age: ns/a before ns/b alphabetically"},
		{"by rule", a, a, origin("a", 0, 0), origin("a", 2, 0), "same route: rule 0 comes before rule 2"},
		{"by match", a, a, origin("a", 1, 0), origin("a", 1, 1), "same rule: match 0 comes before match 1"},
	}
	for _, tt := range tests {
		if got := tieBreak(tt.x, tt.y, tt.xo, tt.yo).Message; got != tt.want {
			t.Errorf("%s: tieBreak = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestChanges(t *testing.T) {
	req := evaluate.Request{Host: "a.example.com", Path: "/old?x=1", Headers: http.Header{"X-Keep": {"1"}, "X-Drop": {"2"}, "X-Set": {"3"}}}
	fwd := evaluate.ForwardedRequest{Host: "b.internal", Path: "/new?x=1", Headers: http.Header{"X-Keep": {"1"}, "X-Set": {"4"}, "X-Add": {"5", "6"}}}
	want := []Change{
		{What: "host", Op: "set", From: "a.example.com", Value: "b.internal"},
		{What: "path", Op: "set", From: "/old?x=1", Value: "/new?x=1"},
		{What: "header", Name: "X-Add", Op: "added", Value: "5, 6"},
		{What: "header", Name: "X-Drop", Op: "removed", From: "2"},
		{What: "header", Name: "X-Set", Op: "set", From: "3", Value: "4"},
	}
	if diff := cmp.Diff(want, changes(req, fwd)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

func TestNearest(t *testing.T) {
	api, apis, root := ir.Match{Path: "/api"}, ir.Match{Path: "/apis/v1"}, ir.Match{Path: "/"}
	miss := Miss{Condition: CondPath}
	es := []entry{
		{rule: 0, match: 0, spec: &root, misses: []Miss{miss}},
		{rule: 1, match: 0, spec: &api, misses: []Miss{miss}},
		{rule: 2, match: 0, spec: &apis, misses: []Miss{miss, miss}},
	}
	// Equal failures: the longer shared prefix with /apis wins.
	if got := nearest(es, "/apis?x=1"); got.rule != 1 {
		t.Errorf("nearest = rule %d, want 1", got.rule)
	}
	if nearest(nil, "/") != nil {
		t.Error("nearest of nothing is not nil")
	}
}

func TestDescribePorts(t *testing.T) {
	ls := []gwv1.Listener{{Name: "b", Port: 443}, {Name: "a", Port: 80}, {Name: "c", Port: 80}}
	if got, want := describePorts(ls), "ports 80 (listeners a, c) and 443 (listener b)"; got != want {
		t.Errorf("describePorts = %q, want %q", got, want)
	}
	if got, want := describePorts(ls[:1]), "port 443 (listener b)"; got != want {
		t.Errorf("describePorts = %q, want %q", got, want)
	}
}
