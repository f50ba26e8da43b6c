package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/shadow"
)

// deadMatchFindings turns the dead matches of g's virtual hosts (see
// package shadow) into findings: a warning on each dead match naming the
// match that takes its requests and the precedence rule that decided, and,
// when identical matches of routes in different namespaces meet, a warning
// on both routes. Like Superseded for L4 routes, the routes stay Accepted:
// the spec has no condition for this, so only a finding can say it.
func (w *world) deadMatchFindings(g ir.Gateway, routes *routeFacts) []diag.Finding {
	var out []diag.Finding
	for _, grp := range groupShadowed(shadow.Find(ir.IR{Gateways: []ir.Gateway{g}})) {
		dead, win := grp.Dead, grp.Winner
		where := placesString(grp.places)
		if grp.Relation == shadow.Identical && dead.Namespace != win.Namespace {
			out = append(out,
				w.matchFinding(routes, dead, diag.ReasonConflictingMatch, fmt.Sprintf(
					"%s claims the same host and match on %s; it takes every request there (%s), so this match receives none",
					shadow.OriginString(win), where, identicalRule(routes, dead, win))),
				w.matchFinding(routes, win, diag.ReasonConflictingMatch, fmt.Sprintf(
					"%s in another namespace claims the same host and match on %s; this match takes every request there (%s)",
					shadow.OriginString(dead), where, identicalRule(routes, dead, win))))
			continue
		}
		out = append(out, w.matchFinding(routes, dead, diag.ReasonUnreachableMatch, fmt.Sprintf(
			"never receives traffic on %s: %s comes first and takes every request it matches (%s); the route stays Accepted",
			where, shadow.OriginString(win), relationRule(routes, grp.Shadowed))))
	}
	return out
}

// routeFact is what the findings need of a route beyond the IR.
type routeFact struct {
	created metav1.Time
	// matches is the number of matches each rule writes (0: none, so the
	// rule matches every request and has no matches[] field to point at).
	matches []int
}

// routeFacts holds the routeFact of every HTTPRoute and GRPCRoute of the
// input. It is built on first use, since most Gateways have no dead match,
// and once per Translate: every Gateway's findings read the same facts,
// possibly on several goroutines at once.
type routeFacts struct {
	in    *Input
	once  sync.Once
	byRef map[diag.ObjectRef]routeFact
}

func (f *routeFacts) of(ref diag.ObjectRef) routeFact {
	f.once.Do(f.build)
	return f.byRef[ref]
}

func (f *routeFacts) build() {
	f.byRef = make(map[diag.ObjectRef]routeFact, len(f.in.HTTPRoutes)+len(f.in.GRPCRoutes))
	for _, r := range f.in.HTTPRoutes {
		fact := routeFact{created: r.CreationTimestamp, matches: make([]int, len(r.Spec.Rules))}
		for i, rule := range r.Spec.Rules {
			fact.matches[i] = len(rule.Matches)
		}
		f.byRef[diag.ObjectRef{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name}] = fact
	}
	for _, r := range f.in.GRPCRoutes {
		fact := routeFact{created: r.CreationTimestamp, matches: make([]int, len(r.Spec.Rules))}
		for i, rule := range r.Spec.Rules {
			fact.matches[i] = len(rule.Matches)
		}
		f.byRef[diag.ObjectRef{Kind: "GRPCRoute", Namespace: r.Namespace, Name: r.Name}] = fact
	}
}

func (w *world) matchFinding(routes *routeFacts, o ir.Origin, reason, msg string) diag.Finding {
	ref := originRef(o)
	return diag.Finding{Severity: diag.Warning, Object: ref, Source: w.in.Sources.Of(ref),
		Field: matchField(routes.of(ref), o), Reason: reason, Message: msg}
}

func originRef(o ir.Origin) diag.ObjectRef {
	return diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}

// matchField is spec.rules[i].matches[j], or spec.rules[i] for a rule
// that writes no matches.
func matchField(f routeFact, o ir.Origin) string {
	if o.Rule < len(f.matches) && f.matches[o.Rule] == 0 {
		return fmt.Sprintf("spec.rules[%d]", o.Rule)
	}
	return fmt.Sprintf("spec.rules[%d].matches[%d]", o.Rule, o.Match)
}

// identicalRule says which precedence rule breaks the tie between two
// identical matches, as compareHTTPRoutes and compareGRPCRoutes apply it.
func identicalRule(routes *routeFacts, dead, win ir.Origin) string {
	if originRef(dead) == originRef(win) {
		return "identical match; within a route the earlier rule and match win"
	}
	switch compareCreation(routes.of(originRef(win)).created, routes.of(originRef(dead)).created) {
	case -1:
		return "identical match; the older route wins"
	case 0:
		return "identical match and the same creationTimestamp; the first route by namespace/name wins"
	}
	// Only PathPrefixes that differ by a trailing slash get here: they
	// match the same paths, but precedence compares written lengths first.
	return "identical match; its prefix is written longer (a trailing slash), and precedence counts prefix length before age"
}

// relationRule says why the winner covers the dead match.
func relationRule(routes *routeFacts, s shadow.Shadowed) string {
	switch s.Relation {
	case shadow.Identical:
		return identicalRule(routes, s.Dead, s.Winner)
	case shadow.RegexCovers:
		return "its RegularExpression path matches every path this match does; gwsim ranks RegularExpression before PathPrefix"
	case shadow.PrefixCovers:
		return "its PathPrefix covers this match's path and its other conditions are a subset of this match's"
	}
	return "same path, and its method, header and query conditions are a subset of this match's"
}

// shadowGroup is one dead match and its winner, with every place where
// that winner kills it.
type shadowGroup struct {
	shadow.Shadowed
	places []shadow.Place
}

// groupShadowed folds the places of each (dead, winner, relation) into one
// entry, so that a route attached to many hosts gets one finding per
// winner rather than one per host.
func groupShadowed(list []shadow.Shadowed) []shadowGroup {
	type key struct {
		dead, winner ir.Origin
		rel          shadow.Relation
	}
	idx := map[key]int{}
	var out []shadowGroup
	for _, s := range list {
		k := key{s.Dead, s.Winner, s.Relation}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, shadowGroup{Shadowed: s})
		}
		out[i].places = append(out[i].places, s.Place)
	}
	slices.SortFunc(out, func(a, b shadowGroup) int {
		return cmp.Or(shadow.CompareOrigins(a.Dead, b.Dead), shadow.CompareOrigins(a.Winner, b.Winner))
	})
	return out
}

// placesString renders `Gateway infra/gw port 80 host a.example.com, b.example.com`,
// one clause per Gateway port. Places arrive sorted.
func placesString(places []shadow.Place) string {
	var parts []string
	var hosts []string
	for i, p := range places {
		hosts = append(hosts, p.Host)
		if i+1 < len(places) && places[i+1].Gateway == p.Gateway && places[i+1].Port == p.Port {
			continue
		}
		parts = append(parts, fmt.Sprintf("Gateway %s port %d host %s", p.Gateway, p.Port, strings.Join(slices.Compact(hosts), ", ")))
		hosts = nil
	}
	return strings.Join(parts, "; ")
}
