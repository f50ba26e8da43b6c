package egpolicy

import (
	"fmt"
	"slices"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// layered decides the kinds that attach at every level
// (BackendTrafficPolicy, SecurityPolicy, EnvoyExtensionPolicy), most
// specific level first, as EG's Process*Policies do: route rules, routes,
// ListenerSet listeners, ListenerSets, Gateway listeners, Gateways. Each
// level sees what the more specific ones claimed.
func (a *attacher) layered(of []*Policy) {
	g := newScopeGraph()
	a.parents = a.parentPolicies(of)
	a.merged = map[scope]map[scope]bool{}
	isGateway := func(t Target) bool { return t.Kind == "Gateway" }
	isSet := func(t Target) bool { return t.Kind == "ListenerSet" }
	isRoute := func(t Target) bool { return !isGateway(t) && !isSet(t) }
	stages := []struct {
		selectors bool
		match     func(Target) bool
		do        func(*Policy, Target, *scopeGraph)
	}{
		{false, func(t Target) bool { return isRoute(t) && t.Section != "" }, a.onRoute},
		{true, func(t Target) bool { return isRoute(t) && t.Section == "" }, a.onRoute},
		{false, func(t Target) bool { return isSet(t) && t.Section != "" }, a.onListenerSet},
		{true, func(t Target) bool { return isSet(t) && t.Section == "" }, a.onListenerSet},
		{false, func(t Target) bool { return isGateway(t) && t.Section != "" }, a.onGateway},
		{true, func(t Target) bool { return isGateway(t) && t.Section == "" }, a.onGateway},
	}
	for _, st := range stages {
		for _, p := range of {
			for _, t := range a.x.targets(p, st.selectors) {
				if st.match(t) && a.kind.Accepts(t.Kind) {
					st.do(p, t, g)
				}
			}
		}
	}
}

// onRoute attaches p to a route or one of its rules. The ancestors are the
// route's handled parentRefs.
func (a *attacher) onRoute(p *Policy, t Target, g *scopeGraph) {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	rt := a.x.routes[routeKey{t.Kind, key}]
	if rt == nil {
		return
	}
	routeScope := scope{level: LevelRoute, kind: t.Kind, key: key}
	var refs []gwv1.ParentReference
	for _, par := range rt.Parents {
		pkey := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
		section := ""
		if par.SectionName != nil {
			section = string(*par.SectionName)
		}
		switch par.Kind {
		case "ListenerSet":
			ls := a.x.listenerSets[pkey]
			if ls == nil {
				continue
			}
			g.registerListenerSet(pkey, ls.Gateway)
			if section != "" {
				g.add(scope{level: LevelListenerSetListener, key: pkey, section: section}, routeScope)
			} else {
				g.add(scope{level: LevelListenerSet, key: pkey}, routeScope)
			}
		default:
			if section != "" {
				g.add(scope{level: LevelListener, key: pkey, section: section}, routeScope)
			} else {
				g.add(scope{level: LevelGateway, key: pkey}, routeScope)
			}
		}
		refs = append(refs, ancestorRef(par.Kind, pkey, section))
	}
	level, own := LevelRoute, routeScope
	if t.Section != "" {
		level, own = LevelRouteRule, scope{level: LevelRouteRule, kind: t.Kind, key: key, section: t.Section}
		if !slices.Contains(rt.RuleNames, t.Section) {
			a.refuse(p, t, refs, notFound(fmt.Sprintf("No section name %s found for %s %s", t.Section, t.Kind, key)))
			return
		}
	}
	if holder := a.claim(own, p); holder != nil {
		what := t.Kind + " " + t.Name
		if t.Section != "" {
			what = "RouteRule " + t.Name + "/" + t.Section
		}
		a.refuseFor(p, t, refs, conflict(a.kind, what), holder)
		return
	}
	if p.MergeType != nil {
		a.merge(p, rt, routeScope)
	}
	if !a.translates(p, t, level, refs) {
		return
	}
	a.accept(p, t, level, refs)
	if t.Section != "" {
		return
	}
	var rules []string
	for s := range a.claimed {
		if s.level == LevelRouteRule && s.kind == t.Kind && s.key == key {
			rules = append(rules, s.section)
		}
	}
	if len(rules) > 0 {
		slices.Sort(rules)
		noun := a.kind.plural()
		if a.kind == BackendTraffic {
			noun = "backendTrafficPolicy" // EG's wording for this one
		}
		a.overridden(p, refs, fmt.Sprintf("This policy is being overridden by other %s for these route rules: %v", noun, rules))
	}
}

// onListenerSet attaches p to a ListenerSet or one of its listeners.
func (a *attacher) onListenerSet(p *Policy, t Target, g *scopeGraph) {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	ls := a.x.listenerSets[key]
	if ls == nil {
		return
	}
	refs := []gwv1.ParentReference{ancestorRef("ListenerSet", key, t.Section)}
	own := scope{level: LevelListenerSet, key: key}
	level := LevelListenerSet
	if t.Section != "" {
		level, own = LevelListenerSetListener, scope{level: LevelListenerSetListener, key: key, section: t.Section}
		if !slices.Contains(ls.Listeners, t.Section) {
			a.refuse(p, t, refs, notFound(fmt.Sprintf("No section name %s found for ListenerSet %s", t.Section, key)))
			return
		}
	}
	if holder := a.claim(own, p); holder != nil {
		what := "ListenerSet " + t.Name
		if t.Section != "" {
			what = "Listener " + t.Name + "/" + t.Section
		}
		a.refuseFor(p, t, refs, conflict(a.kind, what), holder)
		return
	}
	if t.Section != "" {
		g.registerListenerSet(key, ls.Gateway)
		g.add(scope{level: LevelListenerSet, key: key}, own)
	} else {
		g.add(scope{level: LevelGateway, key: ls.Gateway}, own)
	}
	if a.translates(p, t, level, refs) {
		a.accept(p, t, level, refs)
	}
	a.mergedInto(p, refs, own)
	a.overridden(p, refs, a.overrideMessage(g, own))
}

// onGateway attaches p to a Gateway or one of its listeners.
func (a *attacher) onGateway(p *Policy, t Target, g *scopeGraph) {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	gw := a.x.gateways[key]
	if gw == nil {
		return
	}
	refs := []gwv1.ParentReference{ancestorRef("Gateway", key, t.Section)}
	own := scope{level: LevelGateway, key: key}
	level := LevelGateway
	if t.Section != "" {
		level, own = LevelListener, scope{level: LevelListener, key: key, section: t.Section}
		if !slices.Contains(gw.Listeners, t.Section) {
			a.refuse(p, t, refs, notFound(fmt.Sprintf("No section name %s found for Gateway %s", t.Section, key)))
			return
		}
	}
	if holder := a.claim(own, p); holder != nil {
		what := "Gateway " + t.Name
		if t.Section != "" {
			what = "Listener " + key.String() + "/" + t.Section
		}
		a.refuseFor(p, t, refs, conflict(a.kind, what), holder)
		return
	}
	if t.Section != "" {
		g.add(scope{level: LevelGateway, key: key}, own)
	}
	if a.translates(p, t, level, refs) {
		a.accept(p, t, level, refs)
	}
	a.mergedInto(p, refs, own)
	a.overridden(p, refs, a.overrideMessage(g, own))
}

func (a *attacher) overrideMessage(g *scopeGraph, own scope) string {
	over := g.overriding(own)
	for s := range a.merged[own] {
		delete(over, s) // a route merged into the policy is not said to override it
	}
	d := describeScopes(over)
	if d == "" {
		return ""
	}
	return "This policy is being overridden by other " + a.kind.plural() + " for " + d
}

// parentPolicies maps each Gateway, Gateway listener, ListenerSet and
// ListenerSet listener scope to the first policy naming it (EG's
// gatewayPolicyMap and listenerSetPolicyMap, conflicts not considered):
// the policy a route policy with spec.mergeType merges into.
func (a *attacher) parentPolicies(of []*Policy) map[scope]*Policy {
	out := map[scope]*Policy{}
	for _, p := range of {
		for _, t := range a.x.targets(p, true) {
			key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
			var s scope
			switch t.Kind {
			case "Gateway":
				gw := a.x.gateways[key]
				if gw == nil || t.Section != "" && !slices.Contains(gw.Listeners, t.Section) {
					continue
				}
				s = scope{level: LevelGateway, key: key}
				if t.Section != "" {
					s = scope{level: LevelListener, key: key, section: t.Section}
				}
			case "ListenerSet":
				ls := a.x.listenerSets[key]
				if ls == nil || t.Section != "" && !slices.Contains(ls.Listeners, t.Section) {
					continue
				}
				s = scope{level: LevelListenerSet, key: key}
				if t.Section != "" {
					s = scope{level: LevelListenerSetListener, key: key, section: t.Section}
				}
			default:
				continue
			}
			if out[s] == nil {
				out[s] = p
			}
		}
	}
	return out
}

// merge records a route policy with spec.mergeType merged, on each
// listener the route attaches to, into the closest policy above it: the
// listener's, else the Gateway's (for a ListenerSet's listener: the
// listener's, the ListenerSet's, else the Gateway's). Its ancestor for
// that listener says Merged; a listener with no policy above says
// nothing. The specs themselves are not merged here.
func (a *attacher) merge(p *Policy, rt *Route, routeScope scope) {
	for _, par := range rt.Parents {
		key := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
		for _, l := range par.Listeners {
			var chain []scope
			ref := ancestorRef(par.Kind, key, l)
			if par.Kind == "ListenerSet" {
				ls := a.x.listenerSets[key]
				if ls == nil {
					continue
				}
				chain = []scope{{level: LevelListenerSetListener, key: key, section: l}, {level: LevelListenerSet, key: key}, {level: LevelGateway, key: ls.Gateway}}
			} else {
				chain = []scope{{level: LevelListener, key: key, section: l}, {level: LevelGateway, key: key}}
			}
			for _, s := range chain {
				parent := a.parents[s]
				if parent == nil {
					continue
				}
				if a.merged[s] == nil {
					a.merged[s] = map[scope]bool{}
				}
				a.merged[s][routeScope] = true
				a.builder(p).set(ref, string(egv1a1.PolicyConditionMerged), metav1.ConditionTrue, string(egv1a1.PolicyReasonMerged),
					fmt.Sprintf("Merged with policy %s/%s", parent.Namespace, parent.Name))
				break
			}
		}
	}
}

// mergedInto writes, on a Gateway or ListenerSet policy, the routes whose
// policies were merged into it.
func (a *attacher) mergedInto(p *Policy, refs []gwv1.ParentReference, own scope) {
	if len(a.merged[own]) == 0 {
		return
	}
	msg := "This policy is being merged by other " + a.kind.plural() + " for " + describeScopes(a.merged[own])
	for _, ref := range refs {
		a.builder(p).set(ref, string(egv1a1.PolicyConditionMerged), metav1.ConditionTrue, string(egv1a1.PolicyReasonMerged), msg)
	}
}

// translates reports whether EG's translator takes p's spec at t; when it
// finds an error there (specProblems, geoProblems), the target's
// ancestors are Accepted=False, Invalid, and the policy is among the
// failed attachments rather than the accepted ones: EG answers its
// routes there with a 500. An error on some listeners only (a
// geolocation match without client IP detection there) fails the policy
// on those and leaves it in effect on the others.
func (a *attacher) translates(p *Policy, t Target, level Level, refs []gwv1.ParentReference) bool {
	errs := a.x.specProblems(p)
	if m := a.moduleProblem(p, t); m != "" {
		errs = append(errs, m)
	}
	geo, failing := a.geoProblems(p, t)
	if len(errs) == 0 && geo == "" {
		return true
	}
	msg := finish(append(slices.Clone(errs), nonEmpty(geo)...))
	a.refuse(p, t, refs, Problem{Reason: string(gwv1.PolicyReasonInvalid), Message: msg})
	for _, ref := range refs {
		a.builder(p).warnDeprecated(ref, p.Deprecated)
	}
	if len(errs) == 0 {
		a.r.Failed = append(a.r.Failed, Attachment{Policy: p, Level: level, Target: t, Invalid: msg, FailsClosed: true, Only: failing})
		a.r.Attachments = append(a.r.Attachments, Attachment{Policy: p, Level: level, Target: t})
		return false
	}
	a.fail(p, t, level, msg, !failsOpen(p, errs))
	return false
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// failsOpen reports whether EG lets requests through a SecurityPolicy
// it could not translate: when its only errors are its extAuth's and
// extAuth sets failOpen.
func failsOpen(p *Policy, errs []string) bool {
	sp, ok := p.Object.(*egv1a1.SecurityPolicy)
	if !ok || sp.Spec.ExtAuth == nil || sp.Spec.ExtAuth.FailOpen == nil || !*sp.Spec.ExtAuth.FailOpen {
		return false
	}
	return !slices.ContainsFunc(errs, func(e string) bool { return !strings.HasPrefix(e, "ExtAuth: ") })
}
