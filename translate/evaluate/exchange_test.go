package evaluate

import (
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/gwsim/gwsim/translate/ir"
)

// exchangeModel is one HTTP port whose rules exercise what Exchange
// decides: retries, timeouts, a mirror, response headers, and clusters
// without endpoints.
func exchangeModel() ir.IR {
	rule := func(path, cluster string, a ir.Action, filters ...ir.Filter) ir.Route {
		a.Backends = []ir.WeightedBackend{{Cluster: cluster, Weight: 1}}
		return ir.Route{Match: ir.Match{PathType: "PathPrefix", Path: path}, Action: a, Filters: filters}
	}
	ep := []ir.Endpoint{{Address: "10.0.0.1", Port: 8080}}
	return ir.IR{Gateways: []ir.Gateway{{
		Name: "ns/gw",
		Listeners: []ir.Listener{{
			Port: 80, Protocol: "HTTP",
			Listeners: []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}},
			VirtualHosts: []ir.VirtualHost{{Hostname: "*", Listener: "http", Routes: []ir.Route{
				rule("/retry", "ns/a:80", ir.Action{Retry: &ir.Retry{Attempts: 2, Codes: []int{500}}}),
				rule("/timeout", "ns/a:80", ir.Action{Timeouts: &ir.Timeouts{Request: "1s"}}),
				rule("/mirror", "ns/a:80", ir.Action{}, ir.Filter{RequestMirror: &ir.RequestMirror{Cluster: "ns/m:80", Numerator: 1, Denominator: 1}},
					ir.Filter{ResponseHeaderModifier: &ir.HeaderModifier{Set: []ir.Header{{Name: "X-Rule", Value: "mirror"}}}}),
				rule("/empty", "ns/empty:80", ir.Action{}),
				rule("/draining", "ns/draining:80", ir.Action{}),
			}}},
		}},
		Clusters: []ir.Cluster{
			{Name: "ns/a:80", Endpoints: ep},
			{Name: "ns/m:80", Endpoints: ep},
			{Name: "ns/empty:80"},
			{Name: "ns/draining:80", NoReadyEndpoints: true},
		},
	}}}
}

// TestExchange checks what the gateway does with the backend's answers.
func TestExchange(t *testing.T) {
	type attempt struct {
		status  int
		reset   bool
		latency time.Duration
	}
	tests := []struct {
		name     string
		path     string
		answers  []attempt
		outcome  Outcome
		status   int
		attempts int
		mirrored int
	}{
		{"backend answers", "/mirror", []attempt{{status: 200}}, Routed, 200, 1, 1},
		{"retried status, then success", "/retry", []attempt{{status: 500}, {status: 200}}, Routed, 200, 2, 0},
		{"reset on every attempt", "/retry", []attempt{{reset: true}, {reset: true}, {reset: true}}, NoHealthyUpstream, 503, 3, 0},
		{"status not listed is not retried", "/retry", []attempt{{status: 502}}, Routed, 502, 1, 0},
		{"reset without a retry policy", "/timeout", []attempt{{reset: true}}, NoHealthyUpstream, 503, 1, 0},
		{"late answer", "/timeout", []attempt{{status: 200, latency: 2 * time.Second}}, GatewayTimeout, 504, 1, 0},
		{"answer in time", "/timeout", []attempt{{status: 200, latency: 500 * time.Millisecond}}, Routed, 200, 1, 0},
		{"cluster without endpoints", "/empty", nil, NoHealthyUpstream, 503, 0, 0},
	}
	model := exchangeModel()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Evaluate(model, Request{Scheme: "http", Host: "a.example", Port: 80, Path: tt.path})
			sent, mirrored := 0, 0
			send := func(tg Target) Answer {
				if tg.Mirror {
					mirrored++
					return Answer{Status: 200}
				}
				a := tt.answers[sent]
				sent++
				return Answer{Status: a.status, Reset: a.reset, Latency: a.latency, Headers: http.Header{"X-Backend": {"yes"}}}
			}
			got := Exchange(res, send, rand.New(rand.NewPCG(1, 2)))
			if got.Outcome != tt.outcome || got.Status != tt.status || got.Attempts != tt.attempts || mirrored != tt.mirrored {
				t.Errorf("got %s %d after %d attempts, %d mirrored; want %s %d after %d, %d mirrored",
					got.Outcome, got.Status, got.Attempts, mirrored, tt.outcome, tt.status, tt.attempts, tt.mirrored)
			}
			if got.Local == (tt.outcome == Routed) {
				t.Errorf("Local = %v for %s", got.Local, got.Outcome)
			}
		})
	}
}

// The rule's response header changes apply to the backend's answer.
func TestExchangeResponseHeaders(t *testing.T) {
	res := Evaluate(exchangeModel(), Request{Scheme: "http", Host: "a.example", Port: 80, Path: "/mirror"})
	got := Exchange(res, func(Target) Answer { return Answer{Status: 200, Headers: http.Header{"X-Backend": {"yes"}}} }, rand.New(rand.NewPCG(1, 2)))
	if got.Headers.Get("X-Rule") != "mirror" || got.Headers.Get("X-Backend") != "yes" {
		t.Errorf("headers %v, want the backend's and X-Rule: mirror", got.Headers)
	}
}

// A cluster the input shows without ready endpoints is a 503 before any
// attempt, so that explain and the harness agree.
func TestEvaluateNoReadyEndpoints(t *testing.T) {
	res := Evaluate(exchangeModel(), Request{Scheme: "http", Host: "a.example", Port: 80, Path: "/draining"})
	if res.Outcome != NoHealthyUpstream || res.Status != http.StatusServiceUnavailable || res.Reason == "" {
		t.Errorf("got %s %d (%q), want NoHealthyUpstream 503 with a reason", res.Outcome, res.Status, res.Reason)
	}
}
