package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// policyTLS builds the TLS settings a policy programs and its ResolvedRefs
// condition, and marks the policy invalid when it can verify nothing. CA
// references are local to the policy's namespace: an unsupported kind is
// InvalidKind, a missing or malformed bundle InvalidCACertificateRef, and
// ResolvedRefs takes the reason of the first invalid reference. When no
// reference is usable the policy is Accepted=False/NoValidCACertificate and
// connections fail (5xx); the valid references of a policy that also has
// invalid ones are used. An unknown wellKnownCACertificates is
// Accepted=False/Invalid, with the same effect.
func (w *world) policyTLS(pr *policyResult, finding func(diag.Severity, string, string, string) diag.Finding) {
	p := pr.policy
	v := p.Spec.Validation
	tls := &ir.BackendTLS{Policy: p.Namespace + "/" + p.Name, SNI: string(v.Hostname)}
	pr.tls = tls
	for _, san := range v.SubjectAltNames {
		value := string(san.Hostname)
		if san.Type == gwv1.URISubjectAltNameType {
			value = string(san.URI)
		}
		tls.SubjectAltNames = append(tls.SubjectAltNames, ir.SubjectAltName{Type: string(san.Type), Value: value})
	}
	if len(p.Spec.Options) > 0 {
		tls.Options = make(map[string]string, len(p.Spec.Options))
		for k, v := range p.Spec.Options {
			tls.Options[string(k)] = string(v)
		}
	}
	pr.refs = trueCond(string(gwv1.BackendTLSPolicyConditionResolvedRefs), string(gwv1.BackendTLSPolicyReasonResolvedRefs),
		"all CA certificate references are resolved")
	switch {
	case len(v.CACertificateRefs) > 0 && w.envoyCARefs():
		w.envoyPolicyCAs(pr, finding)
	case len(v.CACertificateRefs) > 0:
		var reason string
		var problems []string
		for i, ref := range v.CACertificateRefs {
			field := fmt.Sprintf("spec.validation.caCertificateRefs[%d]", i)
			ca, problem, msg := w.resolveCABundle(string(ref.Group), string(ref.Kind), p.Namespace, string(ref.Name),
				diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: p.Namespace, Name: p.Name}, field)
			refReason := ""
			switch problem {
			case caBadKind:
				refReason = string(gwv1.BackendTLSPolicyReasonInvalidKind)
			case caBadRef:
				refReason = string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef)
			default:
				tls.CACertificates = append(tls.CACertificates, ca)
				continue
			}
			pr.findings = append(pr.findings, finding(diag.Warning, field, refReason, msg))
			problems = append(problems, field+": "+msg)
			if reason == "" {
				reason = refReason
			}
		}
		if reason != "" {
			pr.refs = falseCond(string(gwv1.BackendTLSPolicyConditionResolvedRefs), reason, strings.Join(problems, "; "))
		}
		if len(tls.CACertificates) == 0 {
			tls.Invalid = string(gwv1.BackendTLSPolicyReasonNoValidCACertificate)
			pr.markInvalid(finding, "spec.validation.caCertificateRefs", tls.Invalid,
				"no CA certificate reference is valid ("+strings.Join(problems, "; ")+")")
		}
	case v.WellKnownCACertificates != nil && *v.WellKnownCACertificates == gwv1.WellKnownCACertificatesSystem:
		tls.WellKnownCACertificates = string(gwv1.WellKnownCACertificatesSystem)
	default:
		tls.Invalid = string(gwv1.PolicyReasonInvalid)
		msg := "neither caCertificateRefs nor wellKnownCACertificates is set"
		if v.WellKnownCACertificates != nil {
			msg = fmt.Sprintf("wellKnownCACertificates %q is not supported; gwsim knows %q", *v.WellKnownCACertificates, gwv1.WellKnownCACertificatesSystem)
		}
		pr.markInvalid(finding, "spec.validation.wellKnownCACertificates", tls.Invalid, msg)
	}
}

// markInvalid records that the policy can verify no connection: its
// Accepted condition and the finding that says so.
func (pr *policyResult) markInvalid(finding func(diag.Severity, string, string, string) diag.Finding, field, reason, why string) {
	msg := why + ", so connections to the targeted backends fail and requests get a 5xx"
	c := falseCond(string(gwv1.PolicyConditionAccepted), reason, msg)
	pr.invalid = &c
	pr.findings = append(pr.findings, finding(diag.Error, field, reason, msg))
}
