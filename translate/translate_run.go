package translate

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// Translate computes IR, status and findings for in. Classes are decided
// first, then Gateways and their listeners, then routes attach to listeners;
// Gateway status and the IR are built last because attachedRoutes and
// virtual hosts depend on every route. A large input is translated on
// every core unless opts.StatusOnly (see translate_parallel.go); the Output is the
// same.
func Translate(in Input, opts Options) Output {
	return translateOn(in, opts, spreadFor(in, opts))
}

// translateOn is Translate with its work spread as sp says.
func translateOn(in Input, opts Options, sp spread) Output {
	w := newWorld(in, opts, sp.workers)
	out := Output{Status: Status{
		GatewayClasses:     map[types.NamespacedName]gwv1.GatewayClassStatus{},
		Gateways:           make(map[types.NamespacedName]gwv1.GatewayStatus, len(in.Gateways)),
		ListenerSets:       map[types.NamespacedName]gwv1.ListenerSetStatus{},
		Routes:             make(map[diag.ObjectRef][]gwv1.RouteParentStatus, routeCount(in)),
		BackendTLSPolicies: map[types.NamespacedName][]gwv1.PolicyAncestorStatus{},
		Backends:           w.egBackendStatuses(),
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
	w.markMergedGateways(gateways)
	sets := listenerSetsOf(gateways)
	out.Findings = append(out.Findings, w.listenerSetParentFindings(gateways)...)
	routes, parentsOf, fs := w.translateAndAttach(gateways, sets, sp)
	out.Findings = append(out.Findings, fs...)
	out.Findings = append(out.Findings, w.resolveKindConflicts(routes, parentsOf, sp.workers)...)
	attached := recordRoutes(out.Status.Routes, routes, parentsOf, sp, opts)
	for k, s := range sets {
		out.Status.ListenerSets[k] = s.status(w)
	}
	for _, o := range w.layOutGateways(gateways, attached, sp.workers) {
		out.Status.Gateways[o.key] = o.status
		if o.ir != nil {
			w.addPolicyAncestors(out.Status.BackendTLSPolicies, o.gateway, *o.ir, attached[o.key])
			out.IR.Gateways = append(out.IR.Gateways, *o.ir)
		}
		out.Findings = append(out.Findings, o.findings...)
	}
	sortPolicyAncestors(out.Status.BackendTLSPolicies)
	if opts.StatusOnly {
		return Output{Status: out.Status}
	}
	slices.SortFunc(out.IR.Gateways, func(a, b ir.Gateway) int { return cmp.Compare(a.Name, b.Name) })
	out.EGPolicies = egPolicies(in, opts, out.Status)
	w.addPolicyEffects(&out)
	out.Elsewhere = elsewhereRoutes(w, routes, parentsOf)
	out.Findings = append(out.Findings, w.backendTLS.policyFindings(out.Status.BackendTLSPolicies, in.Sources)...)
	out.Findings = append(out.Findings, w.assumed.findings()...)
	out.Findings = append(out.Findings, w.assumed.extensionFindings()...)
	out.Findings = append(out.Findings, w.egFilterFindings()...)
	out.Findings = append(out.Findings, egPolicyFindings(out.EGPolicies, in, opts)...)
	out.Findings = diag.Sort(out.Findings)
	return out
}

// recordRoutes puts the status.parents of each route with parents into
// st, counts each route on the listeners it attaches to, and returns the
// routes each Gateway serves, for its IR. The statuses are built spread as
// sp says; what the routes share (the maps, the listeners' counts) is
// written in route order, on the caller's goroutine.
func recordRoutes(st map[diag.ObjectRef][]gwv1.RouteParentStatus, routes []*routeResult, parentsOf [][]*parentResult, sp spread,
	opts Options) map[types.NamespacedName][]attachedRoute {
	statuses := make([][]gwv1.RouteParentStatus, len(routes))
	sp.forChunks(len(routes), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if res := routes[i]; len(parentsOf[i]) > 0 {
				statuses[i] = routeParentStatuses(parentsOf[i], res.refs, partiallyInvalid(res), res.generation, opts)
			}
		}
	})
	attached := map[types.NamespacedName][]attachedRoute{}
	for i, res := range routes {
		parents := parentsOf[i]
		if len(parents) > 0 {
			st[res.info.ref()] = statuses[i]
		}
		for _, p := range parents {
			for _, a := range p.attached {
				a.listener.attachedRoutes++
			}
			for _, a := range p.counted {
				a.listener.attachedRoutes++
			}
			// Counted above wherever attached; programmed only where served.
			if len(servedAttachments(p.attached)) > 0 {
				k := keyOf(p.gateway.gateway.Namespace, p.gateway.gateway.Name)
				attached[k] = append(attached[k], attachedRoute{route: res, parent: p})
			}
		}
	}
	return attached
}

// gatewayOutcome is what one Gateway adds to the Output once every route
// is attached: its status, its IR (nil when it has none), and the findings
// about its IR.
type gatewayOutcome struct {
	key      types.NamespacedName
	gateway  *gatewayResult
	status   gwv1.GatewayStatus
	ir       *ir.Gateway
	findings []diag.Finding
}

// layOutGateways builds the status and IR of every Gateway, on up to
// workers goroutines, each Gateway from the routes attached to it. Its
// order, that of the work (the Gateways with the most routes first, so
// that the workers finish together), is not the Output's: callers put
// the outcomes into maps and sorted lists.
func (w *world) layOutGateways(gateways map[types.NamespacedName]*gatewayResult, attached map[types.NamespacedName][]attachedRoute, workers int) []gatewayOutcome {
	out := make([]gatewayOutcome, 0, len(gateways))
	for k, gr := range gateways {
		out = append(out, gatewayOutcome{key: k, gateway: gr})
	}
	slices.SortFunc(out, func(a, b gatewayOutcome) int {
		return cmp.Or(cmp.Compare(len(attached[b.key]), len(attached[a.key])),
			cmp.Compare(a.key.Namespace, b.key.Namespace), cmp.Compare(a.key.Name, b.key.Name))
	})
	facts := &routeFacts{in: &w.in}
	fanOut(workers, len(out), func(i int) {
		o := &out[i]
		o.status = o.gateway.status(w)
		if !o.gateway.takesRoutes() {
			return // not programmed: no IR, and no route attached to reach a backend
		}
		if w.opts.StatusOnly && len(w.backendTLS.policies) == 0 {
			return // the IR only matters to status through the policies it reaches
		}
		g := w.buildGatewayIR(o.gateway, attached[o.key])
		presentClientCertificate(&g, o.gateway)
		o.ir = &g
		if !w.opts.StatusOnly {
			o.findings = append(w.supersededFindings(g), w.deadMatchFindings(g, facts)...)
		}
	})
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
		if p.refs != nil {
			conds[1] = *p.refs
		}
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
