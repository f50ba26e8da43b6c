package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// BundleVersion is the Gateway API release whose types and rules gwsim
// implements; SupportedVersion says so on every GatewayClass it accepts.
const BundleVersion = "v1.6.3"

// gatewayClassStatus computes the status of a class of gwsim's. Accepted
// and SupportedVersion are always set together, as the spec requires,
// unless the class's profile writes no SupportedVersion. A
// parametersRef that does not resolve makes the class Accepted=False with
// InvalidParameters (see parametersProblem); the class's Gateways are still
// simulated, since the spec does not say what becomes of them.
func (w *world) gatewayClassStatus(c *gwv1.GatewayClass) (gwv1.GatewayClassStatus, []diag.Finding) {
	ref := diag.ObjectRef{Kind: "GatewayClass", Name: c.Name}
	finding := func(sev diag.Severity, field, reason, msg string) diag.Finding {
		return diag.Finding{Severity: sev, Object: ref, Source: w.in.Sources.Of(ref), Field: field, Reason: reason, Message: msg}
	}
	var findings []diag.Finding
	accepted := trueCond(string(gwv1.GatewayClassConditionStatusAccepted), string(gwv1.GatewayClassReasonAccepted),
		fmt.Sprintf("gwsim accepts GatewayClass %s for controller %s", c.Name, c.Spec.ControllerName))
	if p, ok := classParameters(c); ok {
		problem := w.parametersProblem(p)
		if ep := w.egClassProxy(c); problem == "" && ep != nil {
			problem = egProxyProblem(ep)
		}
		if problem != "" {
			accepted = falseCond(string(gwv1.GatewayClassConditionStatusAccepted), string(gwv1.GatewayClassReasonInvalidParameters), problem)
		} else if ep := w.readEnvoyProxy(c, p); ep != "" {
			findings = append(findings, finding(diag.Info, p.field, diag.ReasonNotSupportedYet, ep))
		} else {
			findings = append(findings, parametersNotInterpreted(p, finding))
		}
	}
	conds := []condition{accepted}
	if !ProfileOf(w.opts, c).Status.NoSupportedVersion {
		conds = append(conds, trueCond(string(gwv1.GatewayClassConditionStatusSupportedVersion), string(gwv1.GatewayClassReasonSupportedVersion),
			"gwsim implements Gateway API "+BundleVersion))
	}
	return gwv1.GatewayClassStatus{Conditions: stamp(conds, c.Generation, w.opts.Now)}, findings
}
