package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/shadow"
)

func route(name string, rule int, m ir.Match, backends ...ir.WeightedBackend) ir.Route {
	return ir.Route{Match: m, Action: ir.Action{Backends: backends},
		Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "shop", Name: name, Rule: rule}}
}

func prefix(p string) ir.Match { return ir.Match{PathType: "PathPrefix", Path: p} }

func backend(cluster string, weight int32) ir.WeightedBackend {
	return ir.WeightedBackend{Cluster: cluster, Weight: weight}
}

// model is one Gateway with an HTTP listener on port 80 and one virtual
// host shop.example.com holding routes in the order given.
func model(routes ...ir.Route) ir.IR {
	return ir.IR{Gateways: []ir.Gateway{{Name: "infra/edge", Listeners: []ir.Listener{{
		Port: 80, Protocol: "HTTP",
		Listeners:    []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}},
		VirtualHosts: []ir.VirtualHost{{Hostname: "shop.example.com", Listener: "http", Routes: routes}},
	}}}}}
}

var place = shadow.Place{Gateway: "infra/edge", Port: 80, Listener: "http", Host: "shop.example.com"}

func TestCompareRoutes(t *testing.T) {
	cart := route("store", 0, prefix("/cart"), backend("shop/v1:80", 90), backend("shop/v2:80", 10))
	canary := route("store", 0, prefix("/cart"), backend("shop/v2:80", 1))
	moved := route("store", 1, prefix("/cart"), backend("shop/v1:80", 90), backend("shop/v2:80", 10))
	regex := route("maint", 0, ir.Match{PathType: "RegularExpression", Path: "/.*"}, backend("shop/m:80", 1))
	tests := []struct {
		name     string
		old, new ir.IR
		want     []RouteChange
	}{
		{"nothing changes", model(cart), model(cart), nil},
		{"a rule inserted above is not a change", model(cart), model(moved), nil},
		{"weights change", model(cart), model(canary), []RouteChange{{
			Place: place, Change: Changed, Route: canary.Origin, Match: "PathPrefix /cart",
			Details: []Detail{{Aspect: "backends", Before: "shop/v1:80 (90%) + shop/v2:80 (10%)", After: "shop/v2:80 (100%)"}},
		}}},
		{"added", model(), model(cart), []RouteChange{{
			Place: place, Change: Added, Route: cart.Origin, Match: "PathPrefix /cart",
			Details: []Detail{{Aspect: "backends", After: "shop/v1:80 (90%) + shop/v2:80 (10%)"}},
		}}},
		{"removed", model(cart), model(), []RouteChange{{
			Place: place, Change: Removed, Route: cart.Origin, Match: "PathPrefix /cart",
			Details: []Detail{{Aspect: "backends", Before: "shop/v1:80 (90%) + shop/v2:80 (10%)"}},
		}}},
		{"shadowed by a new regex", model(cart), model(regex, cart), []RouteChange{
			{Place: place, Change: Added, Route: regex.Origin, Match: "RegularExpression /.*",
				Details: []Detail{{Aspect: "backends", After: "shop/m:80 (100%)"}}},
			{Place: place, Change: Shadowed, Route: cart.Origin, Match: "PathPrefix /cart", ShadowedBy: &regex.Origin},
		}},
		{"unshadowed", model(regex, cart), model(cart), []RouteChange{
			{Place: place, Change: Removed, Route: regex.Origin, Match: "RegularExpression /.*",
				Details: []Detail{{Aspect: "backends", Before: "shop/m:80 (100%)"}}},
			{Place: place, Change: Unshadowed, Route: cart.Origin, Match: "PathPrefix /cart", ShadowedBy: &regex.Origin},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, compareRoutes(translate.Output{IR: tt.old}, translate.Output{IR: tt.new})); diff != "" {
				t.Errorf("compareRoutes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompareRequests(t *testing.T) {
	cart := route("store", 0, prefix("/cart"), backend("shop/v1:80", 90), backend("shop/v2:80", 10))
	canary := route("store", 0, prefix("/cart"), backend("shop/v2:80", 1))
	broken := route("store", 0, prefix("/cart"), ir.WeightedBackend{Weight: 1, Invalid: "BackendNotFound"})
	broken.Action.DirectResponse = &ir.DirectResponse{Status: 500, Reason: "no valid backend"}
	tests := []struct {
		name     string
		old, new ir.IR
		want     []string // "request: before → after"
	}{
		{"same", model(cart), model(cart), nil},
		{"weights", model(cart), model(canary), []string{
			"GET http://shop.example.com/cart: shop/v1:80 (90%) + shop/v2:80 (10%) → shop/v2:80 (100%)"}},
		{"gone", model(cart), model(), []string{
			"GET http://shop.example.com/cart: shop/v1:80 (90%) + shop/v2:80 (10%) → route_not_found (404)"}},
		{"backend missing", model(canary), model(broken), []string{
			"GET http://shop.example.com/cart: shop/v2:80 (100%) → 500 (BackendNotFound)"}},
		{"no gateway", model(cart), ir.IR{}, []string{
			"GET http://shop.example.com/cart: shop/v1:80 (90%) + shop/v2:80 (10%) → no Gateway listens on port 80"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range compareRequests(tt.old, tt.new) {
				got = append(got, c.Request+": "+c.Before.Summary+" → "+c.After.Summary)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("compareRequests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProbeForBuildsAMatchingRequest(t *testing.T) {
	m := ir.Match{PathType: "RegularExpression", Path: "/items/[0-9]+", Method: "POST",
		Headers:     []ir.ValueMatch{{Name: "X-Canary", Type: "Exact", Value: "true"}},
		QueryParams: []ir.ValueMatch{{Name: "v", Type: "RegularExpression", Value: "v[0-9]"}}}
	p, ok := probeFor("infra/edge", 8080, "http", "*.example.com", ir.Route{Match: m})
	if !ok {
		t.Fatal("no probe")
	}
	if want := "POST http://any.example.com:8080/items/0?v=v0 [x-canary: true]"; p.line != want {
		t.Errorf("line = %q, want %q", p.line, want)
	}
}

func TestSampleRegex(t *testing.T) {
	tests := []struct {
		expr, want string
		ok         bool
	}{
		{"/api/v[0-9]+/.*", "/api/v0/", true},
		{"/(foo|bar)/x?", "/foo/", true},
		{"/a{2,3}", "/aa", true},
		{`/\d+`, "/0", true},
		{"[", "", false},
		{`/a\bb`, "", false}, // no string matches
	}
	for _, tt := range tests {
		got, ok := sampleRegex(tt.expr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("sampleRegex(%q) = %q, %v; want %q, %v", tt.expr, got, ok, tt.want, tt.ok)
		}
	}
}

func TestShares(t *testing.T) {
	tests := []struct {
		backends []ir.WeightedBackend
		want     string
	}{
		{[]ir.WeightedBackend{backend("a", 1), backend("b", 2)}, "a (33.3%) + b (66.7%)"},
		{[]ir.WeightedBackend{backend("a", 1), backend("b", 0)}, "a (100%)"},
		{[]ir.WeightedBackend{backend("a", 3), {Weight: 1, Invalid: "BackendNotFound"}}, "a (75%) + 500 BackendNotFound (25%)"},
		{nil, "500 (no backend)"},
	}
	for _, tt := range tests {
		if got := Shares(tt.backends); got != tt.want {
			t.Errorf("Shares(%v) = %q, want %q", tt.backends, got, tt.want)
		}
	}
}

func TestCompareFindingsIgnoresLines(t *testing.T) {
	f := func(line int, msg string) diag.Finding {
		return diag.Finding{Severity: diag.Error, Object: diag.ObjectRef{Kind: "HTTPRoute", Namespace: "a", Name: "b"},
			Source: diag.Source{File: "r.yaml", Line: line}, Reason: "R", Message: msg}
	}
	old := []diag.Finding{f(3, "kept"), f(9, "fixed"), f(12, "twice")}
	new := []diag.Finding{f(30, "kept"), f(4, "new"), f(12, "twice"), f(14, "twice")}
	got := compareFindings(old, new)
	want := FindingChanges{Introduced: []diag.Finding{f(4, "new"), f(14, "twice")}, Fixed: []diag.Finding{f(9, "fixed")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("compareFindings (-want +got):\n%s", diff)
	}
}

func TestCompareStatus(t *testing.T) {
	cond := func(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: "messages are not compared " + reason}
	}
	route := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "cart"}
	parents := func(refs metav1.Condition) []gwv1.RouteParentStatus {
		// As translate echoes a stored parentRef: group and kind defaulted.
		ns, group, kind := gwv1.Namespace("infra"), gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway")
		return []gwv1.RouteParentStatus{{ParentRef: gwv1.ParentReference{Group: &group, Kind: &kind, Name: "edge", Namespace: &ns},
			Conditions: []metav1.Condition{cond("Accepted", "True", "Accepted"), refs}}}
	}
	gw := types.NamespacedName{Namespace: "infra", Name: "edge"}
	old := translate.Status{
		Routes:   map[diag.ObjectRef][]gwv1.RouteParentStatus{route: parents(cond("ResolvedRefs", "True", "ResolvedRefs"))},
		Gateways: map[types.NamespacedName]gwv1.GatewayStatus{gw: {Listeners: []gwv1.ListenerStatus{{Name: "http", AttachedRoutes: 1}}}},
	}
	new := translate.Status{
		Routes:   map[diag.ObjectRef][]gwv1.RouteParentStatus{route: parents(cond("ResolvedRefs", "False", "RefNotPermitted"))},
		Gateways: map[types.NamespacedName]gwv1.GatewayStatus{gw: {Listeners: []gwv1.ListenerStatus{{Name: "http", AttachedRoutes: 2}}}},
	}
	want := []StatusChange{
		{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "edge"}, Scope: "listener http", Item: "attachedRoutes", Before: "1", After: "2"},
		{Object: route, Scope: "parent Gateway infra/edge", Item: "ResolvedRefs", Before: "True (ResolvedRefs)", After: "False (RefNotPermitted)"},
	}
	if diff := cmp.Diff(want, compareStatus(old, new)); diff != "" {
		t.Errorf("compareStatus (-want +got):\n%s", diff)
	}
	// Symmetry: the reverse change lists the same values, swapped.
	for i := range want {
		want[i].Before, want[i].After = want[i].After, want[i].Before
	}
	if diff := cmp.Diff(want, compareStatus(new, old)); diff != "" {
		t.Errorf("compareStatus reversed (-want +got):\n%s", diff)
	}
}

func TestSummaryString(t *testing.T) {
	tests := []struct {
		s    Summary
		want string
	}{
		{Summary{}, "0 routes changed, 0 requests change destination"},
		{Summary{RoutesChanged: 3, RequestsChanged: 2, NewErrors: 1}, "3 routes changed, 2 requests change destination, 1 new error"},
		{Summary{RoutesChanged: 1, RequestsChanged: 1, StatusChanges: 2, NewWarnings: 2, Fixed: 1},
			"1 route changed, 1 request changes destination, 2 status conditions change, 2 new warnings, 1 finding fixed"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestMessageKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"also defined at input/overlay.yaml:13; keeping the one at input/overlay.yaml:13", "also defined at overlay.yaml; keeping the one at overlay.yaml"},
		{"also defined at HEAD:deploy/base.yml:20 and <stdin>:4", "also defined at base.yml and <stdin>"},
		{"see old/x.json", "see x.json"},
		{"Service shop/web:80 has no endpoints", "Service shop/web:80 has no endpoints"},
		{`yaml: unmarshal errors: line 7: key "name" already set in map`, `yaml: unmarshal errors: line: key "name" already set in map`},
		{"a deadline 17s, online 3", "a deadline 17s, online 3"},
	}
	for _, tt := range tests {
		if got := messageKey(tt.in); got != tt.want {
			t.Errorf("messageKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
