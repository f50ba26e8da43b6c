package translate

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/egpolicy"
)

// egPolicies decides the Envoy Gateway policies of the input against the
// status just computed (Output.EGPolicies), or nil when there are none or
// no GatewayClass of gwsim's has a profile that simulates them.
func egPolicies(in Input, opts Options, st Status) *egpolicy.Result {
	if len(in.BackendTrafficPolicies)+len(in.ClientTrafficPolicies)+len(in.SecurityPolicies)+len(in.EnvoyExtensionPolicies)+len(in.EnvoyPatchPolicies) == 0 ||
		!egSimulatedAnywhere(in, opts) {
		return nil
	}
	return EGPolicies(in, opts, statusView(st))
}

// egPolicyFindings are the findings a reviewer wants about Envoy Gateway
// policies: one that attaches to nothing (GWS4020), one refused at a
// target (Conflicted GWS4021, a sectionName naming no section
// TargetNotFound GWS4022, Invalid GWS4023), one fully overridden
// (GWS4024). Policies of a class gwsim does not simulate them for are
// left to PolicyFindings.
func egPolicyFindings(res *egpolicy.Result, in Input, opts Options) []diag.Finding {
	if res == nil {
		return nil
	}
	var out []diag.Finding
	for i := range res.Policies {
		p := &res.Policies[i]
		if _, ok := res.Ancestors[p.Kind][p.Key()]; !ok {
			out = append(out, diag.Finding{Severity: diag.Warning, Object: p.Ref(), Source: p.Source, Field: targetField(p),
				Reason: diag.ReasonPolicyNotAttached, Message: fmt.Sprintf("%s attaches to nothing: none of its targets is a Gateway, listener or route of a Gateway Envoy Gateway handles in the input, so it has no effect", p.Kind)})
			continue
		}
		if full := fullyOverridden(res, p); full != "" {
			out = append(out, diag.Finding{Severity: diag.Warning, Object: p.Ref(), Source: p.Source, Field: targetField(p),
				Reason: diag.ReasonPolicyFullyOverridden, Message: full})
		}
	}
	for _, r := range res.Refusals {
		sev := diag.Warning
		if r.Problem.Reason == string(gwv1.PolicyReasonInvalid) {
			sev = diag.Error
		}
		msg := fmt.Sprintf("status.ancestors: Accepted=False (%s): %s", r.Problem.Reason, r.Problem.Message)
		if r.Winner != nil {
			msg += fmt.Sprintf("; the older %s %s holds it and applies instead", r.Winner.Kind, r.Winner.Key())
		}
		out = append(out, diag.Finding{Severity: sev, Object: r.Policy.Ref(), Source: r.Policy.Source, Field: r.Target.Field,
			Reason: r.Problem.Reason, Message: msg})
	}
	return out
}

func egSimulatedAnywhere(in Input, opts Options) bool {
	return slices.ContainsFunc(in.GatewayClasses, func(c *gwv1.GatewayClass) bool {
		return ownsController(opts, string(c.Spec.ControllerName)) && ProfileOf(opts, c).Simulates(profile.BackendTrafficPolicyKind)
	})
}

func targetField(p *egpolicy.Policy) string {
	switch {
	case p.PatchTarget != nil || p.Targets.TargetRef != nil:
		return "spec.targetRef"
	case len(p.Targets.TargetRefs) > 0:
		return "spec.targetRefs"
	}
	return "spec.targetSelectors"
}

// fullyOverridden says why a policy applies nowhere it attaches, or "":
// a Gateway (or ListenerSet) policy each of whose listeners has a
// listener policy of its kind, a route policy each of whose rules has a
// rule policy (a rule without a name cannot have one).
func fullyOverridden(res *egpolicy.Result, p *egpolicy.Policy) string {
	var whole []egpolicy.Attachment
	for _, a := range res.Attachments {
		if a.Policy == p {
			whole = append(whole, a)
		}
	}
	if len(whole) == 0 {
		return ""
	}
	var covered []string
	for _, a := range whole {
		sections := res.Sections(a)
		if len(sections) == 0 {
			return ""
		}
		for _, s := range sections {
			if !slices.ContainsFunc(res.Attachments, func(b egpolicy.Attachment) bool {
				return b.Policy.Kind == p.Kind && b.Policy != p && b.Level == a.Level+1 && b.Target.Kind == a.Target.Kind &&
					b.Target.Namespace == a.Target.Namespace && b.Target.Name == a.Target.Name && b.Target.Section == s
			}) {
				return ""
			}
		}
		covered = append(covered, a.Target.Kind+" "+a.Target.Namespace+"/"+a.Target.Name+" ("+strings.Join(sections, ", ")+")")
	}
	return fmt.Sprintf("fully overridden: every section of %s has a more specific %s, so this one applies nowhere", strings.Join(covered, "; "), p.Kind)
}
