package translate

import (
	"cmp"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// backendTLSTarget is what one BackendTLSPolicy targetRef selects: a
// Service or a ServiceImport and, when section is set, only its port of
// that name.
type backendTLSTarget struct {
	backend backendKey
	section string
}

// backendTLSResult is what gwsim decided about every BackendTLSPolicy: the
// TLS settings that apply per target, each policy's verdict (from which
// status is built per Gateway), and the findings about targetRefs that
// select nothing, which no status can show.
type backendTLSResult struct {
	byTarget map[backendTLSTarget]*ir.BackendTLS
	// policies are in precedence order, winner first.
	policies []*policyResult
	// byBackend lists, per Service or ServiceImport, the targets of every
	// policy naming it.
	byBackend map[backendKey][]policyTargetRef
	findings  []diag.Finding
}

// policyResult is what gwsim decided about one BackendTLSPolicy, whatever
// Gateway reaches its targets.
type policyResult struct {
	policy *gwv1.BackendTLSPolicy
	tls    *ir.BackendTLS
	// invalid, when set, is the Accepted=False condition of a policy that
	// can verify no connection (NoValidCACertificate or Invalid).
	invalid *condition
	// refs is the ResolvedRefs condition.
	refs    condition
	targets []policyTarget
	// findings repeat what status shows; they are reported only for a
	// policy that no Gateway of gwsim reaches, which gets no status.
	findings []diag.Finding
	// notes say what gwsim does not simulate of the policy, which no
	// status shows: they are reported always.
	notes []diag.Finding
}

// policyTarget is one targetRef that selects an existing Service or
// ServiceImport (port).
type policyTarget struct {
	target backendTLSTarget
	// winner is the policy that takes precedence for this target; nil
	// when this policy does.
	winner *gwv1.BackendTLSPolicy
	// udp: the targetRef selects only UDP (a sectionName naming a UDP
	// port, or an object whose every port is UDP); TLS runs over TCP.
	udp bool
	// mixed: the whole object is targeted and some of its ports are UDP.
	mixed bool
}

// policyTargetRef points at target i of policy p.
type policyTargetRef struct {
	p *policyResult
	i int
}

// forPort returns the TLS settings of a port of the Service or
// ServiceImport key, or nil when no policy applies. A policy that names
// the port by sectionName is more specific than one that targets the whole
// object, so it wins; the two do not conflict (both are Accepted, as the
// conformance test BackendTLSPolicyConflictResolution expects). TLS runs
// over TCP, so a UDP port of a targeted object gets none.
func (r backendTLSResult) forPort(key backendKey, port corev1.ServicePort) *ir.BackendTLS {
	if port.Protocol == corev1.ProtocolUDP {
		return nil
	}
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
	res := backendTLSResult{byTarget: map[backendTLSTarget]*ir.BackendTLS{}, byBackend: map[backendKey][]policyTargetRef{}}
	winners := map[backendTLSTarget]*gwv1.BackendTLSPolicy{}
	policies := slices.Clone(w.in.BackendTLSPolicies)
	slices.SortFunc(policies, comparePolicyPrecedence)
	for _, p := range policies {
		ref := diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: p.Namespace, Name: p.Name}
		pr := &policyResult{policy: p}
		finding := func(sev diag.Severity, field, reason, msg string) diag.Finding {
			return diag.Finding{Severity: sev, Object: ref, Source: w.in.Sources.Of(ref), Field: field, Reason: reason, Message: msg}
		}
		w.policyTLS(pr, finding)
		res.findings = append(res.findings, pr.notes...)
		for i, t := range p.Spec.TargetRefs {
			field := fmt.Sprintf("spec.targetRefs[%d]", i)
			pt, f := w.policyTarget(p.Namespace, t, field, ref, finding)
			if f != nil {
				res.findings = append(res.findings, *f)
				continue
			}
			if winner, taken := winners[pt.target]; taken {
				pt.winner = winner
				pr.findings = append(pr.findings, finding(diag.Warning, field, string(gwv1.PolicyReasonConflicted),
					describeConflict(winner, p, pt.target)+"; this policy does not apply there"))
			} else {
				winners[pt.target] = p
				res.byTarget[pt.target] = pr.tls
			}
			res.byBackend[pt.target.backend] = append(res.byBackend[pt.target.backend], policyTargetRef{pr, len(pr.targets)})
			pr.targets = append(pr.targets, pt)
		}
		res.policies = append(res.policies, pr)
	}
	return res
}

// describeConflict says why winner takes target from loser.
func describeConflict(winner, loser *gwv1.BackendTLSPolicy, target backendTLSTarget) string {
	why := "is older"
	if compareCreation(winner.CreationTimestamp, loser.CreationTimestamp) == 0 {
		why = "is as old and comes first by namespace/name"
	}
	return fmt.Sprintf("BackendTLSPolicy %s/%s selects %s as well and %s, so it takes precedence",
		winner.Namespace, winner.Name, describeTarget(target), why)
}

// policyTarget checks one targetRef: gwsim applies BackendTLSPolicies to
// core Services (the spec's Extended support) and to ServiceImports (which
// the spec leaves to implementations, and which gwsim routes to as it does
// to Services), and a sectionName must name a port of the object. A
// targetRef that selects nothing is returned as a finding. An object the
// open world assumes is targeted as named.
func (w *world) policyTarget(ns string, t gwv1.LocalPolicyTargetReferenceWithSectionName, field string, by diag.ObjectRef,
	finding func(diag.Severity, string, string, string) diag.Finding) (policyTarget, *diag.Finding) {
	fail := func(field, reason, msg string) (policyTarget, *diag.Finding) {
		f := finding(diag.Warning, field, reason, msg)
		return policyTarget{}, &f
	}
	if w.policyTargetsBackend(t) {
		return w.egBackendPolicyTarget(ns, t, field, fail)
	}
	key, ok := backendKeyOf(string(t.Group), string(t.Kind), ns, string(t.Name))
	if !ok {
		return fail(field, string(gwv1.PolicyReasonInvalid),
			fmt.Sprintf("target kind %s is not supported; gwsim applies BackendTLSPolicies to core Services and to multicluster.x-k8s.io ServiceImports",
				qualifiedKind(string(t.Group), string(t.Kind))))
	}
	pt := policyTarget{target: backendTLSTarget{backend: key}}
	if t.SectionName != nil {
		pt.target.section = string(*t.SectionName)
	}
	obj, ok := w.inputBackend(key)
	if !ok && w.assume(key.group(), key.kind(), ns, key.Name, assumedBackendWhat(key), by, field) {
		return pt, nil // an assumed object has the port a sectionName names, and no UDP port
	}
	if !ok {
		return fail(field, string(gwv1.PolicyReasonTargetNotFound), fmt.Sprintf("%s does not exist", key))
	}
	udp := 0
	for _, p := range obj.ports {
		if p.Protocol == corev1.ProtocolUDP {
			udp++
		}
	}
	if pt.target.section == "" {
		pt.udp = udp > 0 && udp == len(obj.ports)
		pt.mixed = udp > 0 && udp < len(obj.ports)
		return pt, nil
	}
	i := slices.IndexFunc(obj.ports, func(p corev1.ServicePort) bool { return p.Name == pt.target.section })
	if i < 0 {
		return fail(field+".sectionName", string(gwv1.PolicyReasonTargetNotFound),
			fmt.Sprintf("%s has no port named %q", key, pt.target.section))
	}
	pt.udp = obj.ports[i].Protocol == corev1.ProtocolUDP
	return pt, nil
}

func describeTarget(t backendTLSTarget) string {
	if t.section == "" {
		return t.backend.String()
	}
	return fmt.Sprintf("port %q of %s", t.section, t.backend)
}

// unmetBackendTLS is the ResolvedRefs problem of a backend whose Service
// port a BackendTLSPolicy applies to that gwsim cannot meet (no usable CA
// certificate, an unsupported wellKnownCACertificates): the HTTPBackendRef
// godoc makes the route's ResolvedRefs False then. The backend stays
// programmed, so its requests still get the 5xx of a failed handshake,
// and the policy keeps its ancestor status. The spec names no reason for
// this case; gwsim uses UnsupportedProtocol, the constant for a backend
// the gateway cannot speak to as the route requires, unless the profile
// names its own reason (reason), and the message carries
// diag.MarkerBackendTLSNotMet so that the finding gets its own code
// (GWS6012), not the appProtocol one.
func unmetBackendTLS(b backendResult, field, reason string) (backendResult, bool) {
	c := b.cluster
	if c == nil || c.TLS == nil || c.TLS.Invalid == "" {
		return backendResult{}, false
	}
	if reason == "" {
		reason = string(gwv1.RouteReasonUnsupportedProtocol)
	}
	return backendResult{reason: reason, message: fmt.Sprintf(
		"%s: BackendTLSPolicy %s applies to %s %s port %d and %s (%s), so connections to it fail and its requests get a 5xx",
		field, c.TLS.Policy, backendNoun(c.Kind), c.Service, c.Port, diag.MarkerBackendTLSNotMet, c.TLS.Invalid)}, true
}
