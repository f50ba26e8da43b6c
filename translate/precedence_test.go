package translate

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

func entry(pathType, path, method string, headers, queries int, created int64, ns, name string, rule int) *routeEntry {
	e := &routeEntry{route: ir.Route{
		Match:  ir.Match{PathType: pathType, Path: path, Method: method},
		Origin: ir.Origin{Namespace: ns, Name: name, Rule: rule},
	}}
	for range headers {
		e.route.Match.Headers = append(e.route.Match.Headers, ir.ValueMatch{})
	}
	for range queries {
		e.route.Match.QueryParams = append(e.route.Match.QueryParams, ir.ValueMatch{})
	}
	if created != 0 {
		e.created = metav1.NewTime(time.Unix(created, 0))
	}
	return e
}

// TestPrecedenceRules checks each rule of HTTPRouteRule.Matches in isolation:
// the winner must beat the loser, and the loser must lose to the winner.
func TestPrecedenceRules(t *testing.T) {
	tests := []struct {
		rule          string
		winner, loser *routeEntry
	}{
		{"exact beats prefix", entry("Exact", "/a", "", 0, 0, 0, "n", "r", 0), entry("PathPrefix", "/abcdef", "", 0, 0, 0, "n", "r", 0)},
		{"longer prefix", entry("PathPrefix", "/abc", "", 0, 0, 0, "n", "z", 0), entry("PathPrefix", "/ab", "", 5, 5, 0, "n", "a", 0)},
		{"method", entry("PathPrefix", "/", "GET", 0, 0, 0, "n", "z", 0), entry("PathPrefix", "/", "", 3, 3, 0, "n", "a", 0)},
		{"more headers", entry("PathPrefix", "/", "", 2, 0, 0, "n", "z", 0), entry("PathPrefix", "/", "", 1, 4, 0, "n", "a", 0)},
		{"more query params", entry("PathPrefix", "/", "", 0, 2, 0, "n", "z", 0), entry("PathPrefix", "/", "", 0, 1, 0, "n", "a", 0)},
		{"older route", entry("PathPrefix", "/", "", 0, 0, 100, "z", "z", 0), entry("PathPrefix", "/", "", 0, 0, 200, "a", "a", 0)},
		{"namespace/name", entry("PathPrefix", "/", "", 0, 0, 0, "a", "z", 0), entry("PathPrefix", "/", "", 0, 0, 0, "b", "a", 0)},
		{"name within namespace", entry("PathPrefix", "/", "", 0, 0, 0, "a", "a", 5), entry("PathPrefix", "/", "", 0, 0, 0, "a", "b", 0)},
		{"earlier rule", entry("PathPrefix", "/", "", 0, 0, 0, "a", "a", 0), entry("PathPrefix", "/", "", 0, 0, 0, "a", "a", 1)},
		{"regex after exact", entry("Exact", "/x", "", 0, 0, 0, "n", "z", 0), entry("RegularExpression", "/x.*", "", 0, 0, 0, "n", "a", 0)},
		{"regex before prefix", entry("RegularExpression", "/x", "", 0, 0, 0, "n", "z", 0), entry("PathPrefix", "/xyz", "", 0, 0, 0, "n", "a", 0)},
	}
	for _, tt := range tests {
		if got := compareHTTPRoutes(tt.winner, tt.loser); got >= 0 {
			t.Errorf("%s: winner does not take precedence (compare = %d)", tt.rule, got)
		}
		if got := compareHTTPRoutes(tt.loser, tt.winner); got <= 0 {
			t.Errorf("%s: not symmetric: loser does not lose (compare = %d)", tt.rule, got)
		}
	}
	same := entry("PathPrefix", "/", "", 0, 0, 0, "a", "a", 0)
	if compareHTTPRoutes(same, same) != 0 {
		t.Error("an entry must tie with itself")
	}
}
