package translate

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/defaulttest"
	"github.com/gwsim/gwsim/translate/ir"
)

func redirectFilter() gwv1.HTTPRouteFilter {
	return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gwv1.HTTPRequestRedirectFilter{}}
}

func rewriteFilter() gwv1.HTTPRouteFilter {
	return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{}}
}

func headerFilter() gwv1.HTTPRouteFilter {
	return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterRequestHeaderModifier, RequestHeaderModifier: &gwv1.HTTPHeaderFilter{}}
}

func mirrorFilter(svc string) gwv1.HTTPRouteFilter {
	return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterRequestMirror, RequestMirror: &gwv1.HTTPRequestMirrorFilter{
		BackendRef: gwv1.BackendObjectReference{Name: gwv1.ObjectName(svc), Port: ptr(gwv1.PortNumber(80))},
	}}
}

func extensionFilter() gwv1.HTTPRouteFilter {
	return gwv1.HTTPRouteFilter{Type: gwv1.HTTPRouteFilterExtensionRef, ExtensionRef: &gwv1.LocalObjectReference{
		Group: "example.net", Kind: "Custom", Name: "c",
	}}
}

// TestFilterProblem checks each rule the spec sets on a filter list; the
// forbidden pairs are checked in both orders.
func TestFilterProblem(t *testing.T) {
	tests := []struct {
		name    string
		filters []gwv1.HTTPRouteFilter
		reason  gwv1.RouteConditionReason
	}{
		{"valid", []gwv1.HTTPRouteFilter{headerFilter(), rewriteFilter()}, ""},
		{"mirrors and extensionRefs may repeat", []gwv1.HTTPRouteFilter{mirrorFilter("a"), mirrorFilter("b"), extensionFilter(), extensionFilter()}, ""},
		{"redirect then rewrite", []gwv1.HTTPRouteFilter{redirectFilter(), rewriteFilter()}, gwv1.RouteReasonIncompatibleFilters},
		{"rewrite then redirect", []gwv1.HTTPRouteFilter{rewriteFilter(), redirectFilter()}, gwv1.RouteReasonIncompatibleFilters},
		{"repeated header modifier", []gwv1.HTTPRouteFilter{headerFilter(), headerFilter()}, gwv1.RouteReasonIncompatibleFilters},
		{"unknown type", []gwv1.HTTPRouteFilter{{Type: "Teleport"}}, gwv1.RouteReasonUnsupportedValue},
		{"missing settings", []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterCORS}}, gwv1.RouteReasonUnsupportedValue},
		{"redirect scheme", []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect,
			RequestRedirect: &gwv1.HTTPRequestRedirectFilter{Scheme: ptr("ftp")}}}, gwv1.RouteReasonUnsupportedValue},
		{"redirect status", []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect,
			RequestRedirect: &gwv1.HTTPRequestRedirectFilter{StatusCode: ptr(304)}}}, gwv1.RouteReasonUnsupportedValue},
		{"redirect 308", []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect,
			RequestRedirect: &gwv1.HTTPRequestRedirectFilter{StatusCode: ptr(308)}}}, ""},
		{"mirror percent and fraction", []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestMirror,
			RequestMirror: &gwv1.HTTPRequestMirrorFilter{Percent: ptr(int32(5)), Fraction: &gwv1.Fraction{Numerator: 1}}}}, gwv1.RouteReasonUnsupportedValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := filterProblem(tt.filters, "spec.rules[0].filters")
			if got.reason != string(tt.reason) {
				t.Errorf("reason = %q (%s), want %q", got.reason, got.message, tt.reason)
			}
			if tt.reason != "" && !strings.HasPrefix(got.message, "spec.rules[0].filters") {
				t.Errorf("message %q does not name the field", got.message)
			}
		})
	}
}

func featureInput(routes ...*gwv1.HTTPRoute) Input {
	return Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("http", 80, ""))},
		Services:       []*corev1.Service{testService("app", "svc"), testService("app", "shadow")},
		HTTPRoutes:     routes,
	}
}

func routeWithRules(name string, rules ...gwv1.HTTPRouteRule) *gwv1.HTTPRoute {
	r := testRoute("app", name, gwParent(""), "svc")
	r.Spec.Rules = rules
	return r
}

func svcRef(name string) gwv1.HTTPBackendRef {
	return gwv1.HTTPBackendRef{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
		Name: gwv1.ObjectName(name), Port: ptr(gwv1.PortNumber(80)),
	}}}
}

func featureRoutes(out Output) []ir.Route {
	var rs []ir.Route
	for _, g := range out.IR.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				rs = append(rs, vh.Routes...)
			}
		}
	}
	return rs
}

func parentConds(t *testing.T, out Output, name string) map[string]metav1.Condition {
	t.Helper()
	ps := out.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: "app", Name: name}]
	if len(ps) != 1 {
		t.Fatalf("HTTPRoute app/%s: %d parent statuses, want 1", name, len(ps))
	}
	m := map[string]metav1.Condition{}
	for _, c := range ps[0].Conditions {
		m[c.Type] = c
	}
	return m
}

// TestDroppedRules checks the spec's Drop Rule approach: an invalid rule
// programs nothing; some invalid rules give PartiallyInvalid (message
// starting "Dropped Rule") with Accepted True; all invalid give Accepted
// False and no attachment.
func TestDroppedRules(t *testing.T) {
	valid := gwv1.HTTPRouteRule{BackendRefs: []gwv1.HTTPBackendRef{svcRef("svc")}}
	bad := gwv1.HTTPRouteRule{Filters: []gwv1.HTTPRouteFilter{redirectFilter(), rewriteFilter()}}
	out := translateT(t, featureInput(routeWithRules("partial", valid, bad), routeWithRules("all-bad", bad)), Options{})

	partial := parentConds(t, out, "partial")
	if c := partial["Accepted"]; c.Status != metav1.ConditionTrue {
		t.Errorf("partial: Accepted = %s %s, want True", c.Status, c.Reason)
	}
	pi := partial["PartiallyInvalid"]
	if pi.Status != metav1.ConditionTrue || pi.Reason != string(gwv1.RouteReasonIncompatibleFilters) || !strings.HasPrefix(pi.Message, "Dropped Rule") {
		t.Errorf("partial: PartiallyInvalid = %+v", pi)
	}
	allBad := parentConds(t, out, "all-bad")
	if c := allBad["Accepted"]; c.Status != metav1.ConditionFalse || c.Reason != string(gwv1.RouteReasonIncompatibleFilters) {
		t.Errorf("all-bad: Accepted = %s %s, want False IncompatibleFilters", c.Status, c.Reason)
	}
	if _, ok := allBad["PartiallyInvalid"]; ok {
		t.Errorf("all-bad: PartiallyInvalid must not be set on a fully invalid route")
	}
	rs := featureRoutes(out)
	if len(rs) != 1 || rs[0].Origin.Name != "partial" || rs[0].Origin.Rule != 0 {
		t.Errorf("IR routes = %+v, want only partial#0", rs)
	}
	gw := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	if n := gw.Listeners[0].AttachedRoutes; n != 1 {
		t.Errorf("attachedRoutes = %d, want 1 (the fully invalid route is not attached)", n)
	}
}

// TestFilterReferences checks what the spec says about references in
// filters: an unresolvable mirror backend sets ResolvedRefs False and is
// dropped without touching the request; an ExtensionRef gwsim cannot
// resolve sets ResolvedRefs False (InvalidKind, GEP-1364) and answers the
// requests it would process with a 500, the rule's or one backend's share.
func TestFilterReferences(t *testing.T) {
	mirror := gwv1.HTTPRouteRule{Filters: []gwv1.HTTPRouteFilter{mirrorFilter("shadow"), mirrorFilter("nope")},
		BackendRefs: []gwv1.HTTPBackendRef{svcRef("svc")}}
	ruleExt := gwv1.HTTPRouteRule{Filters: []gwv1.HTTPRouteFilter{extensionFilter()}, BackendRefs: []gwv1.HTTPBackendRef{svcRef("svc")}}
	withExt := svcRef("shadow")
	withExt.Filters = []gwv1.HTTPRouteFilter{extensionFilter()}
	backendExt := gwv1.HTTPRouteRule{BackendRefs: []gwv1.HTTPBackendRef{svcRef("svc"), withExt}}
	out := translateT(t, featureInput(routeWithRules("mirror", mirror), routeWithRules("rule-ext", ruleExt),
		routeWithRules("backend-ext", backendExt)), Options{})

	for name, want := range map[string]gwv1.RouteConditionReason{
		"mirror": gwv1.RouteReasonBackendNotFound, "rule-ext": gwv1.RouteReasonInvalidKind, "backend-ext": gwv1.RouteReasonInvalidKind,
	} {
		c := parentConds(t, out, name)
		if c["Accepted"].Status != metav1.ConditionTrue || c["ResolvedRefs"].Reason != string(want) {
			t.Errorf("%s: Accepted %s, ResolvedRefs %s; want True, %s", name, c["Accepted"].Status, c["ResolvedRefs"].Reason, want)
		}
	}
	byName := map[string]ir.Route{}
	for _, r := range featureRoutes(out) {
		byName[r.Origin.Name] = r
	}
	m := byName["mirror"]
	if m.Action.DirectResponse != nil || len(m.Filters) != 2 ||
		m.Filters[0].RequestMirror.Cluster != "app/shadow:80" || m.Filters[1].RequestMirror.Invalid != string(gwv1.RouteReasonBackendNotFound) {
		t.Errorf("mirror route = %+v", m)
	}
	if d := byName["rule-ext"].Action.DirectResponse; d == nil || d.Status != 500 {
		t.Errorf("rule-ext: direct response = %+v, want 500", d)
	}
	be := byName["backend-ext"].Action
	if be.DirectResponse != nil || be.Backends[0].Invalid != "" || be.Backends[1].Invalid != string(gwv1.RouteReasonInvalidKind) {
		t.Errorf("backend-ext: action = %+v, want svc valid and shadow invalid", be)
	}
}

// defaultedRule is rule with the CRD defaults, as an HTTPRoute the loader
// reads has them.
func defaultedRule(t *testing.T, rule gwv1.HTTPRouteRule) gwv1.HTTPRouteRule {
	t.Helper()
	route := &gwv1.HTTPRoute{Spec: gwv1.HTTPRouteSpec{Rules: []gwv1.HTTPRouteRule{*rule.DeepCopy()}}}
	return defaulttest.Default(t, route).Spec.Rules[0]
}

func TestRuleSettings(t *testing.T) {
	d := func(s string) *gwv1.Duration { v := gwv1.Duration(s); return &v }
	tests := []struct {
		name string
		rule gwv1.HTTPRouteRule
		want string // reason, "" when valid
	}{
		{"timeouts", gwv1.HTTPRouteRule{Timeouts: &gwv1.HTTPRouteTimeouts{Request: d("10s"), BackendRequest: d("1m")}}, "UnsupportedValue"},
		{"zero request disables the bound", gwv1.HTTPRouteRule{Timeouts: &gwv1.HTTPRouteTimeouts{Request: d("0s"), BackendRequest: d("1m")}}, ""},
		{"GEP-2257 syntax", gwv1.HTTPRouteRule{Timeouts: &gwv1.HTTPRouteTimeouts{Request: d("1.5s")}}, "UnsupportedValue"},
		{"compound duration", gwv1.HTTPRouteRule{Timeouts: &gwv1.HTTPRouteTimeouts{Request: d("1m30s")}}, ""},
		{"retry", gwv1.HTTPRouteRule{Retry: &gwv1.HTTPRouteRetry{Codes: []gwv1.HTTPRouteRetryStatusCode{500, 503}, Attempts: ptr(2), Backoff: d("100ms")}}, ""},
		{"retry code", gwv1.HTTPRouteRule{Retry: &gwv1.HTTPRouteRetry{Codes: []gwv1.HTTPRouteRetryStatusCode{302}}}, "UnsupportedValue"},
		{"session cookie", gwv1.HTTPRouteRule{SessionPersistence: &gwv1.SessionPersistence{}}, ""},
		{"permanent cookie needs a timeout", gwv1.HTTPRouteRule{SessionPersistence: &gwv1.SessionPersistence{
			CookieConfig: &gwv1.CookieConfig{LifetimeType: ptr(gwv1.PermanentCookieLifetimeType)}}}, "UnsupportedValue"},
		{"cookie config on header", gwv1.HTTPRouteRule{SessionPersistence: &gwv1.SessionPersistence{
			Type: ptr(gwv1.HeaderBasedSessionPersistence), CookieConfig: &gwv1.CookieConfig{}}}, "UnsupportedValue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := ruleSettings(defaultedRule(t, tt.rule), "spec.rules[0]")
			if p.reason != tt.want {
				t.Errorf("reason = %q (%s), want %q", p.reason, p.message, tt.want)
			}
		})
	}
	a, _ := ruleSettings(defaultedRule(t, gwv1.HTTPRouteRule{SessionPersistence: &gwv1.SessionPersistence{}}), "spec.rules[0]")
	if sp := a.SessionPersistence; sp.Type != "Cookie" || sp.CookieLifetime != "Session" {
		t.Errorf("session persistence defaults = %+v, want Cookie with a Session lifetime", sp)
	}
}
