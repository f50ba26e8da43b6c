package egpolicy

import (
	"fmt"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
)

// moduleProblem: an EnvoyExtensionPolicy's dynamic module must be in the
// allowlist of the EnvoyProxy of every Gateway it reaches (EG's
// buildDynamicModules).
func (a *attacher) moduleProblem(p *Policy, t Target) string {
	eep, ok := p.Object.(*egv1a1.EnvoyExtensionPolicy)
	if !ok || len(eep.Spec.DynamicModule) == 0 {
		return ""
	}
	for _, gw := range a.gatewaysOf(t) {
		g := a.x.gateways[gw]
		if g == nil {
			continue
		}
		for _, m := range eep.Spec.DynamicModule {
			if !slices.Contains(g.DynamicModules, m.Name) {
				return fmt.Sprintf("DynamicModule: dynamic module %q is not registered in the EnvoyProxy dynamicModules allowlist", m.Name)
			}
		}
	}
	return ""
}

// gatewaysOf are the Gateways a target reaches: itself, a ListenerSet's,
// or those of a route's handled parentRefs.
func (a *attacher) gatewaysOf(t Target) []types.NamespacedName {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	switch t.Kind {
	case "Gateway":
		return []types.NamespacedName{key}
	case "ListenerSet":
		if ls := a.x.listenerSets[key]; ls != nil {
			return []types.NamespacedName{ls.Gateway}
		}
		return nil
	}
	rt := a.x.routes[routeKey{t.Kind, key}]
	if rt == nil {
		return nil
	}
	var out []types.NamespacedName
	for _, par := range rt.Parents {
		gw := types.NamespacedName{Namespace: par.Namespace, Name: par.Name}
		if par.Kind == "ListenerSet" {
			ls := a.x.listenerSets[gw]
			if ls == nil {
				continue
			}
			gw = ls.Gateway
		}
		if !slices.Contains(out, gw) {
			out = append(out, gw)
		}
	}
	return out
}
