package translate

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Envoy Gateway decides a listener in two passes (profile
// ListenerChoices.EnvoyListenerRules): first each listener's own spec,
// where a problem that Envoy cannot program leaves the listener not
// Programmed without a word on Accepted; then conflicts, among the
// listeners whose spec passed only, so that a broken listener never takes
// a port from a sound one. docs/implementations.md names the source of
// each rule.

// Envoy Gateway's own listener reasons: Programmed False for an HTTPS
// listener whose tls.mode is not Terminate; ResolvedRefs False for a
// listener of which some certificateRefs, not all, are invalid, which
// serves with the valid ones.
const (
	egReasonUnsupportedTLSMode             = "UnsupportedTLSMode"
	egReasonPartiallyInvalidCertificateRef = "PartiallyInvalidCertificateRef"
)

// envoyListenerSpec checks listener r of Gateway g as Envoy Gateway's
// translator does before looking for conflicts: the namespace selector,
// the TLS settings the protocol needs or forbids, the certificates, the
// Gateway's frontend validation and the hostname of a TCP or UDP listener.
// Each problem but a certificate's or a frontend CA's leaves Programmed
// False (the last one found is what the condition says, as Envoy Gateway
// overwrites it).
func (w *world) envoyListenerSpec(g *gwv1.Gateway, r *listenerResult) {
	l, p := r.spec, &r.problems
	invalid := string(gwv1.ListenerReasonInvalid)
	if ar := l.AllowedRoutes; ar != nil && ar.Namespaces != nil && deref(ar.Namespaces.From) == gwv1.NamespacesFromSelector {
		if ar.Namespaces.Selector == nil {
			p.setProgrammed(invalid, "allowedRoutes.namespaces.from is Selector, but allowedRoutes.namespaces.selector is not set")
		} else if _, err := metav1.LabelSelectorAsSelector(ar.Namespaces.Selector); err != nil {
			p.setProgrammed(invalid, fmt.Sprintf("allowedRoutes.namespaces.selector does not parse: %v", err))
		}
	}
	w.envoyListenerTLS(r)
	w.envoyFrontendValidation(g, r)
	if (l.Protocol == gwv1.TCPProtocolType || l.Protocol == gwv1.UDPProtocolType) && l.Hostname != nil {
		p.setProgrammed(invalid, fmt.Sprintf("a %s listener must not set hostname", l.Protocol))
	}
}

// setProgrammed records a problem that leaves the listener not Programmed.
func (p *listenerProblems) setProgrammed(reason, msg string) {
	p.programmedReason, p.programmedMsg = reason, msg
}

// envoyListenerTLS checks the TLS settings of r as its protocol needs
// them: none on HTTP, TCP and UDP; on HTTPS, Terminate mode (tls.mode
// unset is Terminate) with at least one certificateRef; on TLS, no
// certificateRef in Passthrough mode and at least one in Terminate mode.
func (w *world) envoyListenerTLS(r *listenerResult) {
	l, p := r.spec, &r.problems
	invalid := string(gwv1.ListenerReasonInvalid)
	switch l.Protocol {
	case gwv1.HTTPProtocolType, gwv1.TCPProtocolType, gwv1.UDPProtocolType:
		if l.TLS != nil {
			p.setProgrammed(invalid, fmt.Sprintf("a %s listener must not set tls", l.Protocol))
		}
	case gwv1.HTTPSProtocolType, gwv1.TLSProtocolType:
		switch mode := gwv1.TLSModeTerminate; {
		case l.TLS == nil:
			p.setProgrammed(invalid, fmt.Sprintf("a %s listener needs tls", l.Protocol))
		case l.TLS.Mode != nil && *l.TLS.Mode != mode && l.Protocol == gwv1.HTTPSProtocolType:
			p.setProgrammed(egReasonUnsupportedTLSMode, fmt.Sprintf("tls.mode %s is not supported on an HTTPS listener; it must be Terminate", *l.TLS.Mode))
		case l.TLS.Mode != nil && *l.TLS.Mode == gwv1.TLSModePassthrough:
			if len(l.TLS.CertificateRefs) > 0 {
				p.setProgrammed(invalid, "a TLS listener in Passthrough mode must not set tls.certificateRefs")
			}
		case len(l.TLS.CertificateRefs) == 0:
			p.setProgrammed(invalid, fmt.Sprintf("a %s listener in Terminate mode needs at least one tls.certificateRefs entry", l.Protocol))
		default:
			w.envoyCertificates(r)
		}
	}
}

// envoyCertificates resolves every certificateRef of r, keeping the valid
// ones: when some are invalid and others valid, the listener serves with
// the valid ones and ResolvedRefs is False with
// PartiallyInvalidCertificateRef; when none is valid, ResolvedRefs is
// False with RefNotPermitted if every one is refused for want of a
// ReferenceGrant, else InvalidCertificateRef.
func (w *world) envoyCertificates(r *listenerResult) {
	var why []string
	allNotPermitted := true
	for i, ref := range r.spec.TLS.CertificateRefs {
		key, reason, msg := w.resolveCertificate(r.owner, ref, fmt.Sprintf("spec.listeners[%s].tls.certificateRefs[%d]", r.spec.Name, i))
		if reason != "" {
			why = append(why, fmt.Sprintf("tls.certificateRefs[%d]: %s", i, msg))
			allNotPermitted = allNotPermitted && reason == string(gwv1.ListenerReasonRefNotPermitted)
			continue
		}
		r.certs = append(r.certs, key)
		r.certNames = append(r.certNames, w.certificateNames(key)...)
	}
	switch {
	case len(why) == 0:
	case len(r.certs) > 0:
		r.problems.refsReason = egReasonPartiallyInvalidCertificateRef
		r.problems.refsMsg = "some certificateRefs are invalid, the listener serves with the others: " + strings.Join(why, "; ")
	case allNotPermitted:
		r.problems.refsReason, r.problems.refsMsg = string(gwv1.ListenerReasonRefNotPermitted), strings.Join(why, "; ")
	default:
		r.problems.refsReason, r.problems.refsMsg = string(gwv1.ListenerReasonInvalidCertificateRef), strings.Join(why, "; ")
	}
}

// envoySpecValid reports whether r's own spec passed Envoy Gateway's
// checks, which is what lets it take part in conflicts.
func (r *listenerResult) envoySpecValid() bool {
	p := r.problems
	return p.acceptedReason == "" && p.programmedReason == "" && p.frontendReason == "" &&
		(p.refsReason == "" || p.refsReason == egReasonPartiallyInvalidCertificateRef)
}

// envoyServed reports whether the listener ends Programmed under Envoy
// Gateway's rules, and so is in its data plane: nothing is wrong with it
// but, at most, some of its certificateRefs.
func (r *listenerResult) envoyServed() bool {
	p := r.problems
	return p.acceptedReason == "" && p.conflictReason == "" && p.programmedReason == "" && p.frontendReason == "" &&
		(p.refsReason == "" || p.refsReason == egReasonPartiallyInvalidCertificateRef)
}

// problemConditions are a listener's conditions as Envoy Gateway writes
// them (StatusChoices.ProblemListenerConditions): each problem sets its
// own condition, in the order its translator finds them, a later one of
// a type replacing an earlier; then a listener without any is
// Programmed, Accepted and ResolvedRefs (and, on a ListenerSet, not
// Conflicted); one whose only problem is some invalid certificateRefs is
// Accepted and Programmed; one whose only problem is invalid certificates
// is Accepted but not Programmed; any other gets Programmed False
// (Invalid) unless a problem set it, and ResolvedRefs True unless a
// problem set it. No problem but an unsupported protocol or a frontend
// CA says anything on Accepted, except a conflict on a ListenerSet's
// listener. On a ListenerSet's listener the reason Invalid reads
// ListenersNotValid.
func (r *listenerResult) problemConditions() []condition {
	p := r.problems
	accepted, programmed := string(gwv1.ListenerConditionAccepted), string(gwv1.ListenerConditionProgrammed)
	refs := string(gwv1.ListenerConditionResolvedRefs)
	var cs []condition
	set := func(c condition) {
		if i := slices.IndexFunc(cs, func(o condition) bool { return o.Type == c.Type }); i >= 0 {
			cs[i] = c
			return
		}
		cs = append(cs, c)
	}
	if p.programmedReason != "" {
		set(falseCond(programmed, p.programmedReason, p.programmedMsg))
	}
	if p.refsReason != "" {
		set(falseCond(refs, p.refsReason, p.refsMsg))
	}
	if p.acceptedReason != "" {
		set(falseCond(accepted, p.acceptedReason, p.acceptedMsg))
	}
	if p.frontendReason != "" {
		set(falseCond(refs, p.frontendReason, p.frontendMsg))
		set(falseCond(programmed, p.frontendReason, p.frontendMsg))
		set(falseCond(accepted, string(gwv1.ListenerReasonNoValidCACertificate), p.frontendMsg))
	}
	if p.conflictReason != "" {
		set(trueCond(string(gwv1.ListenerConditionConflicted), p.conflictReason, p.conflictMsg))
		if r.owner.kind == "ListenerSet" {
			set(falseCond(accepted, p.conflictReason, p.conflictMsg))
			set(falseCond(programmed, p.conflictReason, p.conflictMsg))
		}
	}
	switch {
	case len(cs) == 0:
		cs = []condition{
			trueCond(programmed, string(gwv1.ListenerReasonProgrammed), "listener is programmed"),
			trueCond(accepted, string(gwv1.ListenerReasonAccepted), "listener is accepted"),
			trueCond(refs, string(gwv1.ListenerReasonResolvedRefs), "all references are resolved"),
		}
		if r.owner.kind == "ListenerSet" {
			cs = append(cs, falseCond(string(gwv1.ListenerConditionConflicted), string(gwv1.ListenerReasonNoConflicts), "no conflicts"))
		}
	case len(cs) == 1 && p.refsReason == egReasonPartiallyInvalidCertificateRef:
		cs = append(cs, trueCond(accepted, string(gwv1.ListenerReasonAccepted), "listener is accepted"),
			trueCond(programmed, string(gwv1.ListenerReasonProgrammed), "listener is programmed with its valid certificates"))
	case len(cs) == 1 && p.refsReason == string(gwv1.ListenerReasonInvalidCertificateRef):
		cs = append(cs, trueCond(accepted, string(gwv1.ListenerReasonAccepted), "listener is accepted"),
			falseCond(programmed, string(gwv1.ListenerReasonInvalid), "listener is not programmed: "+p.refsMsg))
	default:
		if !slices.ContainsFunc(cs, func(c condition) bool { return c.Type == programmed }) {
			cs = append(cs, falseCond(programmed, string(gwv1.ListenerReasonInvalid),
				"listener is not programmed: "+firstNonEmpty(p.acceptedMsg, p.conflictMsg, p.refsMsg)))
		}
		if !slices.ContainsFunc(cs, func(c condition) bool { return c.Type == refs }) {
			cs = append(cs, trueCond(refs, string(gwv1.ListenerReasonResolvedRefs), "all references are resolved"))
		}
	}
	if r.owner.kind == "ListenerSet" {
		for i := range cs {
			if cs[i].Reason == string(gwv1.ListenerReasonInvalid) {
				cs[i].Reason = string(gwv1.ListenerSetReasonListenersNotValid)
			}
		}
	}
	return append(cs, r.overlapCondition()...)
}

// listenerSetConditionsFrom are an attached ListenerSet's Accepted and
// Programmed as Envoy Gateway writes them, from its listeners' conditions
// (entries): Accepted True when every listener is Accepted, True with
// ListenersNotValid when some are, False with ListenersNotValid when none
// is; Programmed True while any listener is Programmed, else False with
// ListenersNotValid.
func listenerSetConditionsFrom(entries [][]condition, gateway string) []condition {
	has := func(cs []condition, typ string) bool {
		return slices.ContainsFunc(cs, func(c condition) bool { return c.Type == typ && c.Status })
	}
	allAccepted, someAccepted, someProgrammed := true, false, false
	for _, cs := range entries {
		a := has(cs, string(gwv1.ListenerConditionAccepted))
		allAccepted, someAccepted = allAccepted && a, someAccepted || a
		someProgrammed = someProgrammed || has(cs, string(gwv1.ListenerConditionProgrammed))
	}
	acceptedType, programmedType := string(gwv1.ListenerSetConditionAccepted), string(gwv1.ListenerSetConditionProgrammed)
	notValid := string(gwv1.ListenerSetReasonListenersNotValid)
	accepted := trueCond(acceptedType, string(gwv1.ListenerSetReasonAccepted), "ListenerSet is attached to Gateway "+gateway)
	switch {
	case allAccepted:
	case someAccepted:
		accepted = trueCond(acceptedType, notValid, "ListenerSet is attached to Gateway "+gateway+", but some listeners are not accepted (see status.listeners)")
	default:
		accepted = falseCond(acceptedType, notValid, "no listener is accepted (see status.listeners)")
	}
	programmed := trueCond(programmedType, string(gwv1.ListenerSetReasonProgrammed), "ListenerSet is programmed")
	if !someProgrammed {
		programmed = falseCond(programmedType, notValid, "no listener is programmed (see status.listeners)")
	}
	return []condition{accepted, programmed}
}

// acceptedByListenerConditions reports whether an attached ListenerSet is
// Accepted as Envoy Gateway decides it (listenerSetConditionsFrom): some
// listener of it is Accepted. Envoy Gateway counts such a ListenerSet in
// its Gateway's attachedListenerSets.
func (s *listenerSetResult) acceptedByListenerConditions() bool {
	if !s.attached() {
		return false
	}
	entries := make([][]condition, len(s.listeners))
	for i, l := range s.listeners {
		entries[i] = l.problemConditions()
	}
	return listenerSetConditionsFrom(entries, "")[0].Status
}
