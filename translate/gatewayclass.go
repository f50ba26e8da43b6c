package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
)

// BundleVersion is the Gateway API release whose types and rules gwsim
// implements; SupportedVersion says so on every GatewayClass it accepts.
const BundleVersion = "v1.6.3"

// gatewayClassStatus computes the status of a class of gwsim's. Accepted
// and SupportedVersion are always set together, as the spec requires.
func (w *world) gatewayClassStatus(c *gwv1.GatewayClass) (gwv1.GatewayClassStatus, []diag.Finding) {
	var findings []diag.Finding
	if ref := c.Spec.ParametersRef; ref != nil {
		findings = append(findings, diag.Finding{
			Severity: diag.Warning,
			Object:   diag.ObjectRef{Kind: "GatewayClass", Name: c.Name},
			Source:   w.source("GatewayClass", "", c.Name),
			Field:    "spec.parametersRef",
			Reason:   diag.ReasonNotSupportedYet,
			Message: fmt.Sprintf("parametersRef %s/%s %s is not evaluated yet; the class is accepted without it",
				ref.Group, ref.Kind, ref.Name),
		})
	}
	conds := []condition{
		trueCond(string(gwv1.GatewayClassConditionStatusAccepted), string(gwv1.GatewayClassReasonAccepted),
			fmt.Sprintf("gwsim accepts GatewayClass %s for controller %s", c.Name, c.Spec.ControllerName)),
		trueCond(string(gwv1.GatewayClassConditionStatusSupportedVersion), string(gwv1.GatewayClassReasonSupportedVersion),
			"gwsim implements Gateway API "+BundleVersion),
	}
	return gwv1.GatewayClassStatus{Conditions: stamp(conds, c.Generation, w.opts.Now)}, findings
}
