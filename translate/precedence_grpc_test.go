package translate

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

func grpcEntry(service, method string, headers int, created int64, ns, name string, rule, match int) *routeEntry {
	e := &routeEntry{
		route: ir.Route{Origin: ir.Origin{Kind: "GRPCRoute", Namespace: ns, Name: name, Rule: rule, Match: match}},
		grpc:  grpcMethodKey{service: service, method: method},
	}
	for range headers {
		e.route.Match.Headers = append(e.route.Match.Headers, ir.ValueMatch{})
	}
	if created != 0 {
		e.created = metav1.NewTime(time.Unix(created, 0))
	}
	return e
}

// TestGRPCPrecedenceRules checks each rule of GRPCRouteRule.Matches in
// isolation (the loser is better on every later rule), in both directions.
func TestGRPCPrecedenceRules(t *testing.T) {
	tests := []struct {
		rule          string
		winner, loser *routeEntry
	}{
		{"more service characters", grpcEntry("pkg.Svc", "", 0, 200, "z", "z", 1, 1), grpcEntry("a.Svc", "LongMethod", 5, 100, "a", "a", 0, 0)},
		{"a service beats none", grpcEntry("s", "", 0, 0, "n", "z", 0, 0), grpcEntry("", "LongMethod", 3, 0, "n", "a", 0, 0)},
		{"more method characters", grpcEntry("svc", "Method", 0, 200, "z", "z", 1, 1), grpcEntry("svc", "Get", 5, 100, "a", "a", 0, 0)},
		{"a method beats none", grpcEntry("svc", "M", 0, 0, "n", "z", 0, 0), grpcEntry("svc", "", 4, 0, "n", "a", 0, 0)},
		{"more header matches", grpcEntry("svc", "M", 2, 200, "z", "z", 1, 1), grpcEntry("svc", "M", 1, 100, "a", "a", 0, 0)},
		{"older route", grpcEntry("", "", 0, 100, "z", "z", 1, 1), grpcEntry("", "", 0, 200, "a", "a", 0, 0)},
		{"namespace first", grpcEntry("", "", 0, 0, "a", "z", 1, 1), grpcEntry("", "", 0, 0, "b", "a", 0, 0)},
		{"then name", grpcEntry("", "", 0, 0, "a", "a", 1, 1), grpcEntry("", "", 0, 0, "a", "b", 0, 0)},
		{"earlier rule", grpcEntry("", "", 0, 0, "a", "a", 0, 1), grpcEntry("", "", 0, 0, "a", "a", 1, 0)},
		{"earlier match", grpcEntry("", "", 0, 0, "a", "a", 0, 0), grpcEntry("", "", 0, 0, "a", "a", 0, 1)},
	}
	for _, tt := range tests {
		for name, compare := range map[string]func(a, b *routeEntry) int{"compareGRPCRoutes": compareGRPCRoutes, "compareRouteEntries": compareRouteEntries} {
			if got := compare(tt.winner, tt.loser); got >= 0 {
				t.Errorf("%s: %s: winner does not take precedence (compare = %d)", tt.rule, name, got)
			}
			if got := compare(tt.loser, tt.winner); got <= 0 {
				t.Errorf("%s: %s: not symmetric: loser does not lose (compare = %d)", tt.rule, name, got)
			}
		}
	}
	same := grpcEntry("svc", "M", 1, 0, "a", "a", 0, 0)
	if compareGRPCRoutes(same, same) != 0 {
		t.Error("an entry must tie with itself")
	}
}

// TestCompareRouteEntriesDispatch checks that HTTPRoute entries keep
// HTTPRoute's rules (an HTTP entry has no gRPC key, so gRPC's rules would
// tie) and that entries of different kinds still order deterministically.
func TestCompareRouteEntriesDispatch(t *testing.T) {
	exact := entry("Exact", "/a", "", 0, 0, 0, "n", "z", 0)
	prefix := entry("PathPrefix", "/a", "", 0, 0, 0, "n", "a", 0)
	exact.route.Origin.Kind, prefix.route.Origin.Kind = "HTTPRoute", "HTTPRoute"
	if compareRouteEntries(exact, prefix) >= 0 || compareRouteEntries(prefix, exact) <= 0 {
		t.Error("HTTPRoute entries must order by HTTPRoute's precedence")
	}
	g := grpcEntry("svc", "M", 0, 0, "n", "a", 0, 0)
	if a, b := compareRouteEntries(g, exact), compareRouteEntries(exact, g); a == 0 || a != -b {
		t.Errorf("mixed kinds: compare = %d and %d, want a strict, antisymmetric order", a, b)
	}
}
