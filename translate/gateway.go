package translate

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
)

// gatewayResult is what gwsim decided about one Gateway of its own.
type gatewayResult struct {
	gateway   *gwv1.Gateway
	class     *gwv1.GatewayClass
	listeners []*listenerResult
	addresses addressDecision
	// parameters says why spec.infrastructure.parametersRef does not
	// resolve; "" when it does or is not set.
	parameters string
	// telemetry says why the implementation refuses the Gateway for the
	// telemetry of the parameters it runs with (egTelemetryProblem): the
	// Gateway is not Accepted, but, unlike unresolved parameters, its
	// listeners are still translated and keep their status.
	telemetry string
	// sets are the ListenerSets whose parentRef names the Gateway, in
	// listener precedence order, attached or not.
	sets []*listenerSetResult
	// backendTLS is what spec.tls.backend resolves to.
	backendTLS gatewayBackendTLS
	// nsName is "namespace/name", which every route's messages repeat.
	nsName string
	// choices are the listener choices of the Gateway's profile.
	choices profile.ListenerChoices
	// frontendProblem says why a frontend validation of spec.tls does not
	// resolve, under Envoy Gateway's listener rules; "" otherwise.
	frontendProblem string
}

func (g *gatewayResult) name() string { return g.nsName }

// evaluateGateway decides g's listeners, or explains why gwsim does not
// handle g at all.
func (w *world) evaluateGateway(g *gwv1.Gateway) (*gatewayResult, []diag.Finding) {
	ref := diag.ObjectRef{Kind: "Gateway", Namespace: g.Namespace, Name: g.Name}
	finding := func(sev diag.Severity, field, reason, msg string) diag.Finding {
		return diag.Finding{Severity: sev, Object: ref, Source: w.in.Sources.Of(ref), Field: field, Reason: reason, Message: msg}
	}
	class, ok := w.classes[string(g.Spec.GatewayClassName)]
	if !ok {
		return nil, []diag.Finding{finding(diag.Error, "spec.gatewayClassName", string(gwv1.GatewayReasonPending),
			fmt.Sprintf("GatewayClass %s is not in the input; no controller would accept this Gateway", g.Spec.GatewayClassName))}
	}
	if !w.isOurs(class) {
		return nil, []diag.Finding{finding(diag.Info, "spec.gatewayClassName", diag.ReasonNotSimulated,
			fmt.Sprintf("GatewayClass %s belongs to controller %s, which gwsim was not asked to simulate (--controller-name)",
				class.Name, class.Spec.ControllerName))}
	}
	addresses := decideAddresses(keyOf(g.Namespace, g.Name), g.Spec.Addresses, w.opts)
	findings := addresses.findings(finding)
	findings = append(findings, gatewayTLSFindings(g, finding)...)
	if infra := g.Spec.Infrastructure; infra != nil && (len(infra.Labels) > 0 || len(infra.Annotations) > 0) {
		findings = append(findings, finding(diag.Info, "spec.infrastructure", diag.ReasonNotSupportedYet,
			"spec.infrastructure labels and annotations have no effect on routing and are not simulated"))
	}
	var parameters string
	if p, ok := gatewayParameters(g); ok {
		parameters = w.parametersProblem(p)
		switch {
		case parameters != "":
		case p.group == profile.EnvoyProxyKind.Group && p.kind == profile.EnvoyProxyKind.Kind && w.gatewayProfile(g).Simulates(profile.EnvoyProxyKind):
			findings = append(findings, finding(diag.Info, p.field, diag.ReasonNotSupportedYet, fmt.Sprintf(
				"%s resolves; gwsim checks its telemetry sinks, backendRefs and access log matches as Envoy Gateway does, and does not simulate its other settings (proxy deployment, telemetry output, ...)", p.describe())))
		default:
			findings = append(findings, parametersNotInterpreted(p, finding))
		}
	}
	if ep := w.egGatewayProxy(g, class); parameters == "" && ep != nil {
		parameters = egProxyProblem(ep)
	}
	gr := &gatewayResult{
		nsName:     g.Namespace + "/" + g.Name,
		gateway:    g,
		class:      class,
		listeners:  w.evaluateListeners(g),
		addresses:  addresses,
		parameters: parameters,
		telemetry:  w.egTelemetryProblem(g, class),
		backendTLS: w.resolveBackendTLS(g),
		choices:    w.gatewayProfile(g).Listeners,
	}
	if gr.choices.EnvoyListenerRules {
		gr.frontendProblem = w.envoyGatewayFrontend(g)
	}
	gr.sets = w.evaluateListenerSets(gr, gr.takesRoutes())
	markOverlappingTLS(gr.allListeners(), gr.name())
	return gr, findings
}

// allListeners returns the Gateway's own listeners, then those of its
// attached ListenerSets in precedence order: the merged list the data plane
// serves.
func (gr *gatewayResult) allListeners() []*listenerResult {
	out := gr.listeners
	for _, s := range gr.sets {
		out = append(out[:len(out):len(out)], s.listeners...)
	}
	return out
}

// status builds the Gateway's status once every route has been attached.
// Its listeners and conditions are about its own spec.listeners alone
// (GEP-1713: they "reflect the status of the local configuration");
// attachedListenerSets counts the Accepted ListenerSets, and is set when
// the Gateway allows ListenerSets or one names it as its parent.
func (gr *gatewayResult) status(w *world) gwv1.GatewayStatus {
	g := gr.gateway
	st := gwv1.GatewayStatus{Addresses: gr.addresses.bound}
	choices := ProfileOf(w.opts, gr.class).Status
	listenerConds := (*listenerResult).conditions
	if choices.ProblemListenerConditions {
		listenerConds = (*listenerResult).problemConditions
	}
	allAccepted, someAccepted := true, false
	for _, l := range gr.statusListeners() {
		cs := listenerConds(l)
		ok := slices.ContainsFunc(cs, func(c condition) bool { return c.Type == string(gwv1.ListenerConditionAccepted) && c.Status })
		allAccepted, someAccepted = allAccepted && ok, someAccepted || ok
		st.Listeners = append(st.Listeners, gwv1.ListenerStatus{
			Name:           l.spec.Name,
			SupportedKinds: l.kinds,
			AttachedRoutes: l.attachedRoutes,
			Conditions:     stamp(cs, g.Generation, w.opts.Now),
		})
	}
	if len(gr.sets) > 0 || allowsListenerSets(g) {
		n := int32(0)
		for _, s := range gr.sets {
			if s.accepted() || choices.ProblemListenerConditions && s.acceptedByListenerConditions() {
				n++
			}
		}
		st.AttachedListenerSets = &n
	}
	accepted, programmed := gr.conditions()
	if choices.ProblemListenerConditions && !gr.refusedAsWhole() && gr.telemetry == "" && len(gr.listeners) > 0 {
		accepted = acceptedByListenerConditions(trueCond(accepted.Type, string(gwv1.GatewayReasonAccepted), "Gateway is accepted"), allAccepted, someAccepted)
	}
	conds := []condition{accepted, programmed}
	if refs, ok := gr.resolvedRefsCondition(choices); ok {
		conds = append(conds, refs)
	}
	st.Conditions = stamp(append(conds, insecureFrontendConditions(g)...), g.Generation, w.opts.Now)
	return st
}

// allowsListenerSets reports whether g's spec.allowedListeners admits any
// namespace.
func allowsListenerSets(g *gwv1.Gateway) bool {
	al := g.Spec.AllowedListeners
	return al != nil && al.Namespaces != nil && al.Namespaces.From != nil && *al.Namespaces.From != gwv1.NamespacesFromNone
}

// conditions decides the Gateway's Accepted and Programmed conditions from
// its own listeners, addresses and parameters.
// An unsupported address type outranks invalid listeners for Accepted; for
// Programmed, an address problem outranks them too, being the one thing
// that keeps an otherwise valid Gateway from being reachable. A
// parametersRef that does not resolve outranks both: it rejects the whole
// Gateway (Accepted=False with InvalidParameters, Programmed=False).
func (gr *gatewayResult) conditions() (accepted, programmed condition) {
	var invalid []string
	for _, l := range gr.listeners {
		if !l.accepted {
			invalid = append(invalid, string(l.spec.Name))
		}
	}
	accepted = trueCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonAccepted), "Gateway is accepted")
	programmed = trueCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonProgrammed),
		gr.addresses.programmedMessage())
	switch {
	case len(invalid) == len(gr.listeners):
		msg := "no listener is accepted, so the Gateway serves nothing; fix them (see status.listeners): " + strings.Join(invalid, ", ")
		if len(gr.listeners) == 0 {
			msg = "spec.listeners is empty; add a listener (the API requires at least one)"
		}
		accepted = falseCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonListenersNotValid), msg)
		programmed = falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonInvalid), msg)
	case len(invalid) > 0:
		accepted = trueCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonListenersNotValid),
			"Gateway is accepted, but these listeners are not (see status.listeners): "+strings.Join(invalid, ", "))
	}
	if a, p := gr.addresses.conditions(); p != nil {
		programmed = *p
		if a != nil {
			accepted = *a
		}
	}
	if gr.telemetry != "" {
		accepted = falseCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonInvalidParameters), gr.telemetry)
		programmed = falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonInvalid), "Gateway is not accepted: "+gr.telemetry)
	}
	if a, p := gr.parametersConditions(); a != nil {
		accepted, programmed = *a, *p
	}
	return accepted, programmed
}

// accepted reports whether the Gateway is Accepted. One that is not is not
// "valid enough to produce some configuration in the underlying data
// plane" (the godoc of the Accepted condition): no route attaches to it,
// and it has no entry in the IR.
func (gr *gatewayResult) accepted() bool {
	a, _ := gr.conditions()
	return a.Status
}

// takesRoutes reports whether routes and ListenerSets attach to the
// Gateway: when it is accepted, or, under a profile whose routes ignore
// listener validity, unless it is refused as a whole.
func (gr *gatewayResult) takesRoutes() bool {
	if gr.choices.RoutesIgnoreListenerValidity {
		return !gr.refusedAsWhole()
	}
	return gr.accepted()
}

// refusedAsWhole reports whether the Gateway is refused for itself rather
// than for its listeners: its parametersRef does not resolve, or it asks
// for an address type gwsim does not support.
func (gr *gatewayResult) refusedAsWhole() bool {
	return gr.parameters != "" || len(gr.addresses.unsupported) > 0
}

// leftOut reports whether a profile whose routes ignore listener validity
// leaves the Gateway out of translation: refused as a whole, it gets no
// listener status and its routes no parent status.
func (gr *gatewayResult) leftOut() bool {
	return gr.choices.RoutesIgnoreListenerValidity && gr.refusedAsWhole()
}

// statusListeners are the listeners the Gateway's status lists: its own,
// none when it is left out.
func (gr *gatewayResult) statusListeners() []*listenerResult {
	if gr.leftOut() {
		return nil
	}
	return gr.listeners
}

// notAcceptedMessage is the Accepted message of a route refused by a
// Gateway that is not accepted.
func (gr *gatewayResult) notAcceptedMessage() string {
	a, _ := gr.conditions()
	return fmt.Sprintf("Gateway %s is not accepted (%s), so none of its listeners takes routes; fix the Gateway first (see its status)",
		gr.name(), a.Reason)
}
