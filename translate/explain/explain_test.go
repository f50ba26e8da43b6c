package explain

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/evaluate"
)

func request(method, host, target string, headers http.Header) Request {
	return Request{Request: evaluate.Request{Scheme: "http", Host: host, Method: method, Path: target, Headers: headers}}
}

func TestExplainMatch(t *testing.T) {
	in := testInput(t, strings.Join([]string{
		testClass, testGateway, testService,
		testRoute("a", "http", "shop.example.com",
			`{path: {type: PathPrefix, value: /api}}`,
			`{path: {type: PathPrefix, value: /api}, method: POST}`,
			`{path: {type: Exact, value: /api/orders}}`),
		testRoute("b", "http", "shop.example.com", `{path: {type: PathPrefix, value: /}}`),
	}, "\n---\n"))
	tr := Explain(in, request("POST", "shop.example.com", "/api/orders", nil))
	if tr.Outcome != evaluate.Routed || !tr.Succeeded() {
		t.Fatalf("outcome %s, want Routed", tr.Outcome)
	}
	if got := tr.Route.Object; got.Name != "a" || got.Source != "test.yaml:4" || tr.Route.Rule != 2 {
		t.Errorf("route = %+v rule %d, want a (test.yaml:4) rule 2", got, tr.Route.Rule)
	}
	var losers []string
	for _, l := range tr.Losers {
		losers = append(losers, l.Object.Name+"#"+string(rune('0'+l.Rule))+": "+l.DecidedBy.Message)
	}
	want := []string{
		"a#1: path match type: Exact /api/orders ranks before PathPrefix /api (Exact, then RegularExpression, then PathPrefix)",
		"a#0: path match type: Exact /api/orders ranks before PathPrefix /api (Exact, then RegularExpression, then PathPrefix)",
		"b#0: path match type: Exact /api/orders ranks before PathPrefix / (Exact, then RegularExpression, then PathPrefix)",
	}
	if diff := cmp.Diff(want, losers); diff != "" {
		t.Errorf("losers (-want +got):\n%s", diff)
	}
	if tr.Gateway == nil || tr.Gateway.Source != "test.yaml:2" || tr.Listener == nil || tr.Listener.Name != "http" {
		t.Errorf("gateway %+v, listener %+v", tr.Gateway, tr.Listener)
	}
	if len(tr.Backends) != 1 || !tr.Backends[0].Chosen || tr.Backends[0].BackendRef.Source != "test.yaml:3" {
		t.Errorf("backends = %+v", tr.Backends)
	}
}

func TestExplainNearMisses(t *testing.T) {
	in := testInput(t, strings.Join([]string{
		testClass, testGateway, testService,
		testRoute("path", "http", "shop.example.com", `{path: {type: PathPrefix, value: /api}}`),
		testRoute("path-and-method", "http", "shop.example.com", `{path: {type: PathPrefix, value: /api}, method: POST}`),
		testRoute("other-port", "admin", "shop.example.com", `{path: {type: PathPrefix, value: /apis}}`),
		testRoute("hostname", "http", "www.example.com", `{path: {type: PathPrefix, value: /apis}}`),
	}, "\n---\n"))
	tr := Explain(in, request("GET", "shop.example.com", "/apis", nil))
	if tr.Outcome != evaluate.RouteNotFound || tr.Status != http.StatusNotFound || tr.Succeeded() {
		t.Fatalf("outcome %s %d, want RouteNotFound 404", tr.Outcome, tr.Status)
	}
	var got []string
	for _, m := range tr.NearMisses {
		var conds []string
		for _, f := range m.Failed {
			conds = append(conds, string(f.Condition))
		}
		got = append(got, m.Object.Name+": "+strings.Join(conds, ","))
	}
	// Misses on what the request asks for (path, method) before misses
	// placed elsewhere (hostname, listener); then fewest failed; among
	// equals, a miss on the request's own listener before one on another
	// port.
	want := []string{
		"path: Path",
		"path-and-method: Path,Method",
		"hostname: Hostname",
		"other-port: Listener",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("near misses (-want +got):\n%s", diff)
	}
	if msg := tr.NearMisses[1].Failed[0].Message; !strings.Contains(msg, "whole path segments") {
		t.Errorf("path miss %q does not name the segment rule", msg)
	}
}

func TestExplainNoGatewayAndNoListener(t *testing.T) {
	in := testInput(t, strings.Join([]string{testClass, testGateway, testService,
		testRoute("r", "http", "shop.example.com", `{path: {type: PathPrefix, value: /}}`)}, "\n---\n"))
	tests := []struct {
		name     string
		req      Request
		outcome  evaluate.Outcome
		status   int
		firstMis Condition
	}{
		{"no Gateway on the port", Request{Request: evaluate.Request{Host: "shop.example.com", Port: 9090}}, evaluate.NoGateway, 0, CondPort},
		{"no listener covers the host", Request{Request: evaluate.Request{Host: "shop.example.org"}}, evaluate.NoListener, http.StatusNotFound, CondListenerHostname},
		{"an address no Gateway has", Request{Request: evaluate.Request{Host: "shop.example.com"}, Address: "192.0.2.1"}, evaluate.NoGateway, 0, CondAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Explain(in, tt.req)
			if tr.Outcome != tt.outcome || tr.Status != tt.status {
				t.Errorf("outcome %s %d, want %s %d", tr.Outcome, tr.Status, tt.outcome, tt.status)
			}
			if len(tr.NearMisses) == 0 || tr.NearMisses[0].Failed[0].Condition != tt.firstMis {
				t.Errorf("near misses %+v, want %s first", tr.NearMisses, tt.firstMis)
			}
		})
	}
}
