package egpolicy

import (
	"fmt"
	"slices"

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
	if !a.claim(own) {
		what := t.Kind + " " + t.Name
		if t.Section != "" {
			what = "RouteRule " + t.Name + "/" + t.Section
		}
		a.refuse(p, t, refs, conflict(a.kind, what))
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
	if !a.claim(own) {
		what := "ListenerSet " + t.Name
		if t.Section != "" {
			what = "Listener " + t.Name + "/" + t.Section
		}
		a.refuse(p, t, refs, conflict(a.kind, what))
		return
	}
	if t.Section != "" {
		g.registerListenerSet(key, ls.Gateway)
		g.add(scope{level: LevelListenerSet, key: key}, own)
	} else {
		g.add(scope{level: LevelGateway, key: ls.Gateway}, own)
	}
	a.accept(p, t, level, refs)
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
	if !a.claim(own) {
		what := "Gateway " + t.Name
		if t.Section != "" {
			what = "Listener " + key.String() + "/" + t.Section
		}
		a.refuse(p, t, refs, conflict(a.kind, what))
		return
	}
	if t.Section != "" {
		g.add(scope{level: LevelGateway, key: key}, own)
	}
	a.accept(p, t, level, refs)
	a.overridden(p, refs, a.overrideMessage(g, own))
}

func (a *attacher) overrideMessage(g *scopeGraph, own scope) string {
	d := describeScopes(g.overriding(own))
	if d == "" {
		return ""
	}
	return "This policy is being overridden by other " + a.kind.plural() + " for " + d
}
