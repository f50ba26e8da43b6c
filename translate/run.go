package translate

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// Translate computes IR, status and findings for in. Classes are decided
// first, then Gateways and their listeners, then routes attach to listeners;
// Gateway status and the IR are built last because attachedRoutes and
// virtual hosts depend on every route.
func Translate(in Input, opts Options) Output {
	w := newWorld(in, opts)
	out := Output{Status: Status{
		GatewayClasses:     map[types.NamespacedName]gwv1.GatewayClassStatus{},
		Gateways:           make(map[types.NamespacedName]gwv1.GatewayStatus, len(in.Gateways)),
		ListenerSets:       map[types.NamespacedName]gwv1.ListenerSetStatus{},
		Routes:             make(map[diag.ObjectRef][]gwv1.RouteParentStatus, routeCount(in)),
		BackendTLSPolicies: map[types.NamespacedName][]gwv1.PolicyAncestorStatus{},
	}}
	for _, c := range in.GatewayClasses {
		if !w.isOurs(c) {
			continue
		}
		st, fs := w.gatewayClassStatus(c)
		out.Status.GatewayClasses[keyOf("", c.Name)] = st
		out.Findings = append(out.Findings, fs...)
	}
	gateways := map[types.NamespacedName]*gatewayResult{}
	for _, g := range in.Gateways {
		gr, fs := w.evaluateGateway(g)
		out.Findings = append(out.Findings, fs...)
		if gr != nil {
			gateways[keyOf(g.Namespace, g.Name)] = gr
		}
	}
	sets := listenerSetsOf(gateways)
	out.Findings = append(out.Findings, w.listenerSetParentFindings(gateways)...)
	attached := map[types.NamespacedName][]attachedRoute{}
	routes := w.translateRoutes()
	parentsOf := make([][]*parentResult, len(routes))
	for i, res := range routes {
		out.Findings = append(out.Findings, res.findings...)
		var fs []diag.Finding
		parentsOf[i], fs = w.attachRoute(res.info, gateways, sets)
		out.Findings = append(out.Findings, fs...)
		rejectInvalidRoute(res, parentsOf[i])
		if len(parentsOf[i]) == 0 && w.checkedAlone(res.info) {
			out.Findings = append(out.Findings, w.ownFindings(res)...)
		}
	}
	out.Findings = append(out.Findings, w.resolveKindConflicts(routes, parentsOf)...)
	for i, res := range routes {
		parents := parentsOf[i]
		if len(parents) > 0 {
			out.Status.Routes[res.info.ref()] = routeParentStatuses(parents, res.refs, partiallyInvalid(res), res.generation, opts)
		}
		for _, p := range parents {
			for _, a := range p.attached {
				a.listener.attachedRoutes++
			}
			// Counted above wherever attached; programmed only where served.
			if len(servedAttachments(p.attached)) > 0 {
				k := keyOf(p.gateway.gateway.Namespace, p.gateway.gateway.Name)
				attached[k] = append(attached[k], attachedRoute{route: res, parent: p})
			}
		}
	}
	for k, s := range sets {
		out.Status.ListenerSets[k] = s.status(w)
	}
	facts := &routeFacts{in: &w.in}
	for k, gr := range gateways {
		out.Status.Gateways[k] = gr.status(w)
		if !gr.accepted() {
			continue // not programmed: no IR, and no route attached to reach a backend
		}
		if opts.StatusOnly && len(w.backendTLS.policies) == 0 {
			continue // the IR only matters to status through the policies it reaches
		}
		g := w.buildGatewayIR(gr, attached[k])
		presentClientCertificate(&g, gr)
		w.addPolicyAncestors(out.Status.BackendTLSPolicies, gr, g)
		out.IR.Gateways = append(out.IR.Gateways, g)
		if opts.StatusOnly {
			continue
		}
		out.Findings = append(out.Findings, w.supersededFindings(g)...)
		out.Findings = append(out.Findings, w.deadMatchFindings(g, facts)...)
	}
	sortPolicyAncestors(out.Status.BackendTLSPolicies)
	if opts.StatusOnly {
		return Output{Status: out.Status}
	}
	slices.SortFunc(out.IR.Gateways, func(a, b ir.Gateway) int { return cmp.Compare(a.Name, b.Name) })
	out.Findings = append(out.Findings, w.backendTLS.policyFindings(out.Status.BackendTLSPolicies, in.Sources)...)
	out.Findings = append(out.Findings, w.assumed.findings()...)
	out.Findings = append(out.Findings, w.assumed.extensionFindings()...)
	out.Findings = diag.Sort(out.Findings)
	return out
}

// routeCount is the number of routes of every kind in.
func routeCount(in Input) int {
	return len(in.HTTPRoutes) + len(in.GRPCRoutes) + len(in.TLSRoutes) + len(in.TCPRoutes) + len(in.UDPRoutes)
}

// routeParentStatuses builds a route's status.parents entries, in
// parentRefs order. ResolvedRefs is the same for every parent: it is about
// the route's backends, not about where it attaches. PartiallyInvalid, when
// the route has dropped rules, is only set where the route is accepted.
func routeParentStatuses(parents []*parentResult, refs condition, partial *condition, generation int64, opts Options) []gwv1.RouteParentStatus {
	out := make([]gwv1.RouteParentStatus, 0, len(parents))
	for _, p := range parents {
		conds := []condition{p.accepted, refs}
		if partial != nil && p.accepted.Status {
			conds = append(conds, *partial)
		}
		out = append(out, gwv1.RouteParentStatus{
			ParentRef:      p.ref,
			ControllerName: p.gateway.class.Spec.ControllerName,
			Conditions:     stamp(conds, generation, opts.Now),
		})
	}
	return out
}

// listenerSetsOf indexes the ListenerSets of every Gateway of gwsim's by
// key, for routes whose parentRef names one.
func listenerSetsOf(gateways map[types.NamespacedName]*gatewayResult) map[types.NamespacedName]*listenerSetResult {
	out := map[types.NamespacedName]*listenerSetResult{}
	for _, gr := range gateways {
		for _, s := range gr.sets {
			out[keyOf(s.set.Namespace, s.set.Name)] = s
		}
	}
	return out
}
