package egpolicy

import (
	"strings"
	"testing"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/resource"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestTrafficProblems(t *testing.T) {
	q := resource.MustParse
	dur := func(s string) *gwv1.Duration { d := gwv1.Duration(s); return &d }
	min := egv1a1.RateLimitUnitMinute
	tests := []struct {
		name string
		spec egv1a1.BackendTrafficPolicySpec
		want string // "" for none
	}{
		{"valid", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Retry: &egv1a1.Retry{PerRetry: &egv1a1.PerRetryPolicy{
			BackOff: &egv1a1.BackOffPolicy{BaseInterval: dur("1s"), MaxInterval: dur("2s")}}}}}, ""},
		{"buffer limit", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{
			Connection: &egv1a1.BackendConnection{BufferLimit: new(q("1T"))}}}, "BackendConnection: BufferLimit value 1T is out of range"},
		{"request buffer", egv1a1.BackendTrafficPolicySpec{RequestBuffer: &egv1a1.RequestBuffer{Limit: q("5000Mi")}},
			"RequestBuffer: limit value 5000Mi is out of range, must be between 0 and 4294967295"},
		{"bandwidth", egv1a1.BackendTrafficPolicySpec{BandwidthLimit: &egv1a1.BandwidthLimitSpec{Request: &egv1a1.BandwidthLimitRequestConfig{
			Limit: egv1a1.BandwidthLimitValue{Value: q("1023"), Unit: egv1a1.BandwidthLimitUnitSecond}}}},
			"BandwidthLimit: request: bandwidth limit of 1023 bytes per Second is below the minimum of 1 KiB/s"},
		{"retry back-off", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Retry: &egv1a1.Retry{PerRetry: &egv1a1.PerRetryPolicy{
			BackOff: &egv1a1.BackOffPolicy{BaseInterval: dur("2s"), MaxInterval: dur("1s")}}}}}, "Retry: maxInterval cannot be less than baseInterval"},
		{"local rate limit unit", egv1a1.BackendTrafficPolicySpec{RateLimit: &egv1a1.RateLimitSpec{Local: &egv1a1.LocalRateLimit{Rules: []egv1a1.RateLimitRule{
			{Limit: egv1a1.RateLimitValue{Requests: 10, Unit: min}},
			{ClientSelectors: []egv1a1.RateLimitSelectCondition{{Methods: []egv1a1.MethodMatch{{Value: "GET"}}}}, Limit: egv1a1.RateLimitValue{Requests: 1, Unit: egv1a1.RateLimitUnitSecond}},
		}}}}, "RateLimit: local rateLimit rule limit unit must be a multiple of the default limit unit"},
		{"timeout", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Timeout: &egv1a1.Timeout{
			HTTP: &egv1a1.HTTPTimeout{RequestTimeout: dur("soon")}}}}, "Timeout: invalid RequestTimeout value soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(trafficProblems(&tt.spec), "|")
			if got != tt.want {
				t.Errorf("trafficProblems = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFinish(t *testing.T) {
	if got := finish([]string{"a: x", "b: y."}); got != "A: x\nb: y." {
		t.Errorf("finish = %q", got)
	}
	if got := finish(nil); got != "" {
		t.Errorf("finish(nil) = %q", got)
	}
}

// portWorld has Gateway gw with two plain HTTP listeners on port 80 and
// an HTTPS one, and Gateway other of the same class on port 80.
func portWorld(merged bool) *World {
	http := ListenerSpec{Protocol: gwv1.HTTPProtocolType, Port: 80}
	return &World{
		Gateways: []Gateway{
			{Object: Object{Namespace: "ns", Name: "gw"}, Class: "eg", Listeners: []string{"a", "b", "tls"},
				Specs: []ListenerSpec{http, http, {Protocol: gwv1.HTTPSProtocolType, Port: 80, Terminates: true}}},
			{Object: Object{Namespace: "ns", Name: "other"}, Class: "eg", Listeners: []string{"a"}, Specs: []ListenerSpec{http}},
		},
		MergedClasses: map[string]bool{"eg": merged},
	}
}

func TestPortProblem(t *testing.T) {
	tests := []struct {
		name     string
		merged   bool
		listener string
		scope    ctpScope
		want     string // the listeners named, "" for none
	}{
		{"section shares its port", false, "a", scopeSection, "ns/gw/b"},
		{"the whole Gateway covers both", false, "a", scopeGateway, ""},
		{"TLS has its own filter chain", false, "tls", scopeSection, ""},
		{"merged Gateways share the port", true, "a", scopeGateway, "ns/other/a"},
		{"merged, section", true, "b", scopeSection, "ns/gw/a, ns/other/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newIndex(portWorld(tt.merged))
			l, ok := x.sectionListener(nn("ns", "gw"), nil, tt.listener)
			if !ok {
				t.Fatal("no listener")
			}
			got := x.portProblem(l, tt.scope)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, "("+tt.want+")") {
				t.Errorf("portProblem = %q, want listeners %q", got, tt.want)
			}
		})
	}
}

// A policy EG refuses for its spec displaces the less specific policy of
// its kind (EG answers its routes with a 500) and brings none of its own
// effects: Effective returns it marked Invalid.
func TestEffectiveFailed(t *testing.T) {
	w := world()
	bad := &egv1a1.BackendTrafficPolicy{Spec: egv1a1.BackendTrafficPolicySpec{
		RequestBuffer: &egv1a1.RequestBuffer{Limit: resource.MustParse("5000Mi")}}}
	onGateway := policy(BackendTraffic, "gw-wide", 2, ref("Gateway", "gw", ""))
	onGateway.Object = &egv1a1.BackendTrafficPolicy{}
	onRoute := policy(BackendTraffic, "route", 1, ref("HTTPRoute", "r2", ""))
	onRoute.Object = bad
	r := Attach(w, []Policy{onGateway, onRoute}, Options{})
	got := r.Effective(Point{Gateway: nn("ns", "gw"), Listener: "http", RouteKind: "HTTPRoute", Route: nn("ns", "r2")})
	if len(got) != 1 || got[0].Policy.Name != "route" || got[0].Invalid == "" || !got[0].FailsClosed {
		t.Fatalf("Effective = %+v, want the refused route policy, failing closed", got)
	}
	if s := summary(r, BackendTraffic, "route"); len(s) != 1 || s[0] != "gw/http:Accepted=False/Invalid" && s[0] != "gw:Accepted=False/Invalid" {
		t.Errorf("route policy ancestors = %v", s)
	}
	// r1 is untouched: the Gateway's policy applies there.
	got = r.Effective(Point{Gateway: nn("ns", "gw"), Listener: "http", RouteKind: "HTTPRoute", Route: nn("ns", "r1")})
	if len(got) != 1 || got[0].Policy.Name != "gw-wide" || got[0].Invalid != "" {
		t.Errorf("Effective on r1 = %+v, want the Gateway's policy", got)
	}
}
