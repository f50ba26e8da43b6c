package translate

import (
	"cmp"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// backendTLSTarget is what one BackendTLSPolicy targetRef selects: a
// Service and, when section is set, only its port of that name.
type backendTLSTarget struct {
	service types.NamespacedName
	section string
}

// backendTLSResult is what gwsim decided about every BackendTLSPolicy: the
// TLS settings that apply per target, and the findings that explain them.
type backendTLSResult struct {
	byTarget map[backendTLSTarget]*ir.BackendTLS
	findings []diag.Finding
}

// forPort returns the TLS settings of the Service port, or nil when no
// policy applies. A policy that names the port by sectionName is more
// specific than one that targets the whole Service, so it wins; the two do
// not conflict (both are Accepted, as the conformance test
// BackendTLSPolicyConflictResolution expects). TLS runs over TCP, so a UDP
// port of a targeted Service gets none.
func (r backendTLSResult) forPort(svc *corev1.Service, port corev1.ServicePort) *ir.BackendTLS {
	if port.Protocol == corev1.ProtocolUDP {
		return nil
	}
	key := keyOf(svc.Namespace, svc.Name)
	if port.Name != "" {
		if t, ok := r.byTarget[backendTLSTarget{key, port.Name}]; ok {
			return t
		}
	}
	return r.byTarget[backendTLSTarget{key, ""}]
}

// comparePolicyPrecedence orders policies that select the same target and
// sectionName, winner first, as the BackendTLSPolicy godoc requires: the
// older creationTimestamp, then the first by "{namespace}/{name}".
func comparePolicyPrecedence(a, b *gwv1.BackendTLSPolicy) int {
	return cmp.Or(compareCreation(a.CreationTimestamp, b.CreationTimestamp),
		cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// resolveBackendTLSPolicies validates every policy and decides, per
// target, which one applies. Policies are visited in precedence order, so
// the first to claim a target keeps it and every later one is Conflicted
// there. A policy with several targetRefs is decided per target: it
// applies wherever it wins. An invalid policy (no usable CA) still takes
// its targets: the spec makes connections to them fail rather than fall
// back to plaintext or to another policy.
func (w *world) resolveBackendTLSPolicies() backendTLSResult {
	res := backendTLSResult{byTarget: map[backendTLSTarget]*ir.BackendTLS{}}
	winners := map[backendTLSTarget]*gwv1.BackendTLSPolicy{}
	policies := slices.Clone(w.in.BackendTLSPolicies)
	slices.SortFunc(policies, comparePolicyPrecedence)
	for _, p := range policies {
		ref := diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: p.Namespace, Name: p.Name}
		finding := func(sev diag.Severity, field, reason, msg string) {
			res.findings = append(res.findings, diag.Finding{
				Severity: sev, Object: ref, Source: w.in.Sources.Of(ref), Field: field, Reason: reason, Message: msg,
			})
		}
		finding(diag.Info, "status", diag.ReasonNotSupportedYet,
			"BackendTLSPolicy status (ancestors) is not simulated yet; the IR shows the clusters it applies to")
		tls := w.policyTLS(p, finding)
		for i, t := range p.Spec.TargetRefs {
			field := fmt.Sprintf("spec.targetRefs[%d]", i)
			target, ok := w.policyTarget(p.Namespace, t, field, finding)
			if !ok {
				continue
			}
			if winner, taken := winners[target]; taken {
				why := "is older"
				if compareCreation(winner.CreationTimestamp, p.CreationTimestamp) == 0 {
					why = "is as old and comes first by namespace/name"
				}
				finding(diag.Warning, field, string(gwv1.PolicyReasonConflicted),
					fmt.Sprintf("BackendTLSPolicy %s/%s selects %s as well and %s, so it takes precedence; this policy does not apply there",
						winner.Namespace, winner.Name, describeTarget(target), why))
				continue
			}
			winners[target] = p
			res.byTarget[target] = tls
		}
	}
	return res
}

// policyTarget checks one targetRef: gwsim applies BackendTLSPolicies to
// core Services (the spec's Extended support), and a sectionName must name
// a port of the Service.
func (w *world) policyTarget(ns string, t gwv1.LocalPolicyTargetReferenceWithSectionName, field string,
	finding func(diag.Severity, string, string, string)) (backendTLSTarget, bool) {
	if t.Group != "" || t.Kind != "Service" {
		finding(diag.Warning, field, string(gwv1.PolicyReasonInvalid),
			fmt.Sprintf("target kind %s is not supported; gwsim applies BackendTLSPolicies to core Services", qualifiedKind(string(t.Group), string(t.Kind))))
		return backendTLSTarget{}, false
	}
	target := backendTLSTarget{service: keyOf(ns, string(t.Name))}
	if t.SectionName != nil {
		target.section = string(*t.SectionName)
	}
	svc, ok := w.services[target.service]
	if !ok {
		finding(diag.Warning, field, string(gwv1.PolicyReasonTargetNotFound),
			fmt.Sprintf("Service %s does not exist", target.service))
		return backendTLSTarget{}, false
	}
	if target.section != "" && !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == target.section }) {
		finding(diag.Warning, field+".sectionName", string(gwv1.PolicyReasonTargetNotFound),
			fmt.Sprintf("Service %s has no port named %q", target.service, target.section))
		return backendTLSTarget{}, false
	}
	return target, true
}

func describeTarget(t backendTLSTarget) string {
	if t.section == "" {
		return "Service " + t.service.String()
	}
	return fmt.Sprintf("port %q of Service %s", t.section, t.service)
}

// policyTLS builds the TLS settings a policy programs. CA references are
// local to the policy's namespace; an unsupported kind is InvalidKind, a
// missing or malformed bundle InvalidCACertificateRef, and when none is
// usable the policy is NoValidCACertificate: connections fail (5xx). An
// unknown wellKnownCACertificates is Invalid, with the same effect.
func (w *world) policyTLS(p *gwv1.BackendTLSPolicy, finding func(diag.Severity, string, string, string)) *ir.BackendTLS {
	v := p.Spec.Validation
	tls := &ir.BackendTLS{Policy: p.Namespace + "/" + p.Name, SNI: string(v.Hostname)}
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
	switch {
	case len(v.CACertificateRefs) > 0:
		for i, ref := range v.CACertificateRefs {
			ca, problem, msg := w.resolveCABundle(string(ref.Group), string(ref.Kind), p.Namespace, string(ref.Name))
			field := fmt.Sprintf("spec.validation.caCertificateRefs[%d]", i)
			switch problem {
			case caBadKind:
				finding(diag.Warning, field, string(gwv1.BackendTLSPolicyReasonInvalidKind), msg)
			case caBadRef:
				finding(diag.Warning, field, string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef), msg)
			default:
				tls.CACertificates = append(tls.CACertificates, ca)
			}
		}
		if len(tls.CACertificates) == 0 {
			tls.Invalid = string(gwv1.BackendTLSPolicyReasonNoValidCACertificate)
			finding(diag.Error, "spec.validation.caCertificateRefs", tls.Invalid,
				"no CA certificate reference is valid: connections to the targeted backends fail and requests get a 5xx")
		}
	case v.WellKnownCACertificates != nil && *v.WellKnownCACertificates == gwv1.WellKnownCACertificatesSystem:
		tls.WellKnownCACertificates = string(gwv1.WellKnownCACertificatesSystem)
	default:
		tls.Invalid = string(gwv1.PolicyReasonInvalid)
		msg := "neither caCertificateRefs nor wellKnownCACertificates is set"
		if v.WellKnownCACertificates != nil {
			msg = fmt.Sprintf("wellKnownCACertificates %q is not supported; gwsim knows %q", *v.WellKnownCACertificates, gwv1.WellKnownCACertificatesSystem)
		}
		finding(diag.Error, "spec.validation.wellKnownCACertificates", tls.Invalid,
			msg+": connections to the targeted backends fail and requests get a 5xx")
	}
	return tls
}
