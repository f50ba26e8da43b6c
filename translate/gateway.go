package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
)

// gatewayResult is what gwsim decided about one Gateway of its own.
type gatewayResult struct {
	gateway   *gwv1.Gateway
	class     *gwv1.GatewayClass
	listeners []*listenerResult
	addresses addressDecision
	// attachedRoutes counts, per listener name, the routes attached to it.
	attachedRoutes map[gwv1.SectionName]int32
}

func (g *gatewayResult) name() string { return g.gateway.Namespace + "/" + g.gateway.Name }

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
	addresses := decideAddresses(keyOf(g.Namespace, g.Name), g.Spec.Addresses, w.opts.Addresses)
	findings := addresses.findings(finding)
	findings = append(findings, gatewayTLSFindings(g, finding)...)
	if g.Spec.Infrastructure != nil {
		findings = append(findings, finding(diag.Info, "spec.infrastructure", diag.ReasonNotSupportedYet,
			"spec.infrastructure has no effect on routing and is not simulated"))
	}
	gr := &gatewayResult{
		gateway:        g,
		class:          class,
		listeners:      w.evaluateListeners(g),
		addresses:      addresses,
		attachedRoutes: map[gwv1.SectionName]int32{},
	}
	return gr, findings
}

// status builds the Gateway's status once every route has been attached.
// An unsupported address type outranks invalid listeners for Accepted; for
// Programmed, an address problem outranks them too, being the one thing
// that keeps an otherwise valid Gateway from being reachable.
func (gr *gatewayResult) status(w *world) gwv1.GatewayStatus {
	g := gr.gateway
	st := gwv1.GatewayStatus{Addresses: gr.addresses.bound}
	var invalid []string
	for _, l := range gr.listeners {
		if !l.accepted {
			invalid = append(invalid, string(l.spec.Name))
		}
		st.Listeners = append(st.Listeners, gwv1.ListenerStatus{
			Name:           l.spec.Name,
			SupportedKinds: l.kinds,
			AttachedRoutes: gr.attachedRoutes[l.spec.Name],
			Conditions:     stamp(l.conditions(), g.Generation, w.opts.Now),
		})
	}
	accepted := trueCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonAccepted), "Gateway is accepted")
	programmed := trueCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonProgrammed),
		gr.addresses.programmedMessage())
	switch {
	case len(invalid) == len(gr.listeners):
		msg := "no listener is valid: " + strings.Join(invalid, ", ")
		accepted = falseCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonListenersNotValid), msg)
		programmed = falseCond(string(gwv1.GatewayConditionProgrammed), string(gwv1.GatewayReasonInvalid), msg)
	case len(invalid) > 0:
		accepted = trueCond(string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayReasonListenersNotValid),
			"Gateway is accepted, but these listeners are not: "+strings.Join(invalid, ", "))
	}
	if a, p := gr.addresses.conditions(); p != nil {
		programmed = *p
		if a != nil {
			accepted = *a
		}
	}
	st.Conditions = stamp(append([]condition{accepted, programmed}, insecureFrontendConditions(g)...), g.Generation, w.opts.Now)
	return st
}
