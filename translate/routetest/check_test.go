package routetest

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

// routed is a trace of a request that rule 2 ("cart") of shop/storefront
// forwarded, split 90/10 between cart-v1 and cart-v2.
func routed() explain.Trace {
	return explain.Trace{
		Outcome: evaluate.Routed, Status: 200,
		Route:     &explain.RouteStep{Object: explain.Ref{Kind: "HTTPRoute", Namespace: "shop", Name: "storefront"}, Rule: 2, RuleName: "cart"},
		Forwarded: &explain.Forwarded{Host: "shop.example.com", Path: "/cart?id=1", Headers: http.Header{"X-Gateway": {"web"}}},
		Backends: []explain.BackendStep{
			{Weight: 90, BackendRef: &explain.Ref{Kind: "Service", Namespace: "shop", Name: "cart-v1"}, Port: 8080},
			{Weight: 10, BackendRef: &explain.Ref{Kind: "Service", Namespace: "shop", Name: "cart-v2"}, Port: 8080},
			{Weight: 0, BackendRef: &explain.Ref{Kind: "Service", Namespace: "shop", Name: "cart-v3"}, Port: 8080},
		},
	}
}

func TestCheck(t *testing.T) {
	status := func(s int) *int { return &s }
	rule := func(i int) *int { return &i }
	split := func(bs ...WeightedBackend) []WeightedBackend { return bs }
	wb := func(ns, name string, port, weight int32) WeightedBackend {
		return WeightedBackend{BackendRef: BackendRef{Namespace: ns, Name: name, Port: port}, Weight: weight}
	}
	notFound := explain.Trace{Outcome: evaluate.RouteNotFound, Status: 404}
	tests := []struct {
		name   string
		expect Expect
		trace  explain.Trace
		want   []Failure
	}{
		{"status met", Expect{Status: status(200)}, routed(), nil},
		{"status 0 is no HTTP answer", Expect{Status: status(0)}, explain.Trace{Outcome: evaluate.NoGateway}, nil},
		{"status missed", Expect{Status: status(301)}, notFound, []Failure{{Expect: "status", Want: "301", Got: "404"}}},
		{"location missed", Expect{Location: "https://a/"}, notFound, []Failure{{Expect: "location", Want: "https://a/", Got: "no redirect"}}},
		{"route by name", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront", RuleName: "cart"}}, routed(), nil},
		{"route by index", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront", Rule: rule(2)}}, routed(), nil},
		{"route without rule", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront"}}, routed(), nil},
		{"other rule, by name", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront", RuleName: "api"}}, routed(),
			[]Failure{{Expect: "route", Want: "shop/storefront#api", Got: "shop/storefront#cart"}}},
		{"other rule, by index", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront", Rule: rule(1)}}, routed(),
			[]Failure{{Expect: "route", Want: "shop/storefront#1", Got: "shop/storefront#2"}}},
		{"no route", Expect{Route: &RouteRef{Namespace: "shop", Name: "storefront"}}, notFound,
			[]Failure{{Expect: "route", Want: "shop/storefront", Got: "no route"}}},
		{"one backend wanted, a split got", Expect{Backend: &BackendRef{Namespace: "shop", Name: "cart-v1"}}, routed(),
			[]Failure{{Expect: "backend", Want: "shop/cart-v1", Got: "shop/cart-v1:8080 (weight 90), shop/cart-v2:8080 (weight 10)"}}},
		{"split met, weight 0 left out, any port", Expect{Backends: split(wb("shop", "cart-v2", 0, 10), wb("shop", "cart-v1", 8080, 90))}, routed(), nil},
		{"split weights differ", Expect{Backends: split(wb("shop", "cart-v1", 0, 50), wb("shop", "cart-v2", 0, 50))}, routed(),
			[]Failure{{Expect: "backends", Want: "shop/cart-v1 (weight 50), shop/cart-v2 (weight 50)", Got: "shop/cart-v1:8080 (weight 90), shop/cart-v2:8080 (weight 10)"}}},
		{"split with one backend twice", Expect{Backends: split(wb("shop", "cart-v1", 0, 90), wb("shop", "cart-v1", 0, 90))}, routed(),
			[]Failure{{Expect: "backends", Want: "shop/cart-v1 (weight 90), shop/cart-v1 (weight 90)", Got: "shop/cart-v1:8080 (weight 90), shop/cart-v2:8080 (weight 10)"}}},
		{"invalid backend", Expect{Backend: &BackendRef{Namespace: "shop", Name: "reco"}}, explain.Trace{Status: 500, Backends: []explain.BackendStep{
			{Weight: 1, Invalid: "BackendNotFound", BackendRef: &explain.Ref{Namespace: "shop", Name: "reco"}, Port: 80}}},
			[]Failure{{Expect: "backend", Want: "shop/reco", Got: "shop/reco:80 (weight 1, invalid: BackendNotFound)"}}},
		{"forwarded request met", Expect{Path: "/cart?id=1", Host: "shop.example.com", Present: []Header{{Name: "x-gateway"}, {Name: "X-Gateway", Value: "web"}}, Absent: []string{"X-Debug"}}, routed(), nil},
		{"forwarded request missed", Expect{Path: "/new", Host: "a", Present: []Header{{Name: "X-A"}, {Name: "X-Gateway", Value: "other"}}, Absent: []string{"X-Gateway"}}, routed(),
			[]Failure{
				{Expect: "path", Want: "/new", Got: "/cart?id=1"},
				{Expect: "host", Want: "a", Got: "shop.example.com"},
				{Expect: "header", Header: "X-A", Want: "present", Got: "absent"},
				{Expect: "header", Header: "X-Gateway", Want: "other", Got: "web"},
				{Expect: "header", Header: "X-Gateway", Want: "absent", Got: "web"},
			}},
		{"nothing forwarded", Expect{Path: "/", Present: []Header{{Name: "X-A"}}, Absent: []string{"X-B"}}, notFound,
			[]Failure{
				{Expect: "path", Want: "/", Got: "no request forwarded"},
				{Expect: "header", Header: "X-A", Want: "present", Got: "no request forwarded"},
				{Expect: "header", Header: "X-B", Want: "absent", Got: "no request forwarded"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.expect.check(tt.trace)); diff != "" {
				t.Errorf("check (-want +got):\n%s", diff)
			}
		})
	}
}
