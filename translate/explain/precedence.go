package explain

import (
	"fmt"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
)

// decidedBy names the precedence rule that puts win before lose, two
// routes of one virtual host. The translator sorted them (the IR order is
// the answer); this walks the same rules in the same order and names the
// first that tells the two apart.
//
// HTTPRoute (HTTPRouteRule.matches): an Exact path; the longer path; a
// method; more header matches; more query parameter matches. GRPCRoute
// (GRPCRouteRule.matches): the longer service; the longer method; more
// header matches. Both then: the older route; namespace/name
// alphabetically; the earlier rule; the earlier match.
func (w *world) decidedBy(win, lose ir.Route) Decision {
	wr, lr := w.routeOf(win.Origin), w.routeOf(lose.Origin)
	var why Decision
	if win.Origin.Kind == "GRPCRoute" && lose.Origin.Kind == "GRPCRoute" {
		why = grpcDecision(wr.grpcKey(win.Origin.Rule, win.Origin.Match), lr.grpcKey(lose.Origin.Rule, lose.Origin.Match), win.Match, lose.Match)
	} else {
		why = httpDecision(win.Match, lose.Match)
	}
	if why.Code != "" {
		return why
	}
	return tieBreak(wr, lr, win.Origin, lose.Origin)
}

// routeOf returns the route an IR route came from; a route the input does
// not hold (a test harness's) is described by its origin alone.
func (w *world) routeOf(o ir.Origin) *route {
	ref := diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
	if r := w.byRef[ref]; r != nil {
		return r
	}
	return &route{ref: ref}
}

func httpDecision(a, b ir.Match) Decision {
	if translate.PathTypeRank(a.PathType) != translate.PathTypeRank(b.PathType) {
		return Decision{"PathMatchType", fmt.Sprintf("path match type: %s %s ranks before %s %s (Exact, then RegularExpression, then PathPrefix)",
			a.PathType, a.Path, b.PathType, b.Path)}
	}
	if len(a.Path) != len(b.Path) {
		return Decision{"LongerPath", fmt.Sprintf("longer path: %s (%d characters) before %s (%d)", a.Path, len(a.Path), b.Path, len(b.Path))}
	}
	if (a.Method != "") != (b.Method != "") {
		return Decision{"Method", fmt.Sprintf("method: a match on method %s before a match on any method", a.Method)}
	}
	if len(a.Headers) != len(b.Headers) {
		return Decision{"MoreHeaders", fmt.Sprintf("more header matches: %d before %d", len(a.Headers), len(b.Headers))}
	}
	if len(a.QueryParams) != len(b.QueryParams) {
		return Decision{"MoreQueryParams", fmt.Sprintf("more query parameter matches: %d before %d", len(a.QueryParams), len(b.QueryParams))}
	}
	return Decision{}
}

func grpcDecision(a, b grpcKey, am, bm ir.Match) Decision {
	if len(a.service) != len(b.service) {
		return Decision{"LongerService", fmt.Sprintf("longer service: %q (%d characters) before %q (%d)", a.service, len(a.service), b.service, len(b.service))}
	}
	if len(a.method) != len(b.method) {
		return Decision{"LongerMethod", fmt.Sprintf("longer method: %q (%d characters) before %q (%d)", a.method, len(a.method), b.method, len(b.method))}
	}
	if len(am.Headers) != len(bm.Headers) {
		return Decision{"MoreHeaders", fmt.Sprintf("more header matches: %d before %d", len(am.Headers), len(bm.Headers))}
	}
	return Decision{}
}

// tieBreak names the rule that orders two equally specific matches.
func tieBreak(a, b *route, ao, bo ir.Origin) Decision {
	switch {
	case !a.created.Time.Equal(b.created.Time):
		return Decision{"OlderRoute", fmt.Sprintf("older route: %s created %s, %s created %s",
			a.ref, a.created.UTC().Format("2006-01-02T15:04:05Z"), b.ref, b.created.UTC().Format("2006-01-02T15:04:05Z"))}
	case a.ref != b.ref:
		return Decision{"Alphabetical", fmt.Sprintf("equal specificity and age: %s/%s before %s/%s alphabetically", ao.Namespace, ao.Name, bo.Namespace, bo.Name)}
	case ao.Rule != bo.Rule:
		return Decision{"EarlierRule", fmt.Sprintf("same route: rule %d comes before rule %d", ao.Rule, bo.Rule)}
	}
	return Decision{"EarlierMatch", fmt.Sprintf("same rule: match %d comes before match %d", ao.Match, bo.Match)}
}
