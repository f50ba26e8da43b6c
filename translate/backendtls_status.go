package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// A BackendTLSPolicy's status has one entry per ancestor, and its ancestor
// is the Gateway (the godoc of PolicyAncestorStatus recommends it, and the
// conformance tests look for it): a policy has an entry for every Gateway
// of gwsim whose data plane connects to a Service or ServiceImport port the
// policy targets,
// that is, for which the Gateway's IR has a cluster (a backendRef of an
// attached route, mirrors included). A policy that no such Gateway reaches
// has no status.
//
// The conditions of an entry depend on the targets that Gateway reaches:
//   - Accepted=False/Conflicted when another policy takes precedence for
//     every one of them (GEP-713, per target and sectionName);
//   - else Accepted=False/NoValidCACertificate or Invalid when the policy
//     can verify no connection (see policyTLS);
//   - else Accepted=False/Invalid when they are all UDP: TLS runs over TCP
//     (GEP-1897);
//   - else Accepted=True, the message naming the targets where it applies
//     and, as GEP-1897 asks, warning about UDP ports of a targeted Service
//     and about targets where another policy wins.
//
// ResolvedRefs is the policy's own (see policyTLS), the same everywhere.

// addPolicyAncestors adds to st the ancestor entry of every policy that
// Gateway gr (laid out as g, with the routes attached to it) reaches. The
// profile decides what an ancestor is: the Gateway, or each parentRef of
// the routes that reach the policy's targets (backendtls_ancestorref.go).
func (w *world) addPolicyAncestors(st map[types.NamespacedName][]gwv1.PolicyAncestorStatus, gr *gatewayResult, g ir.Gateway, routes []attachedRoute) {
	if len(w.backendTLS.policies) == 0 {
		return
	}
	if ProfileOf(w.opts, gr.class).Status.PolicyAncestorIsParentRef {
		w.addParentRefAncestors(st, gr, routes)
		return
	}
	reached := map[*policyResult]map[int]bool{}
	for _, c := range g.Clusters {
		w.reachTargets(reached, c)
	}
	ns := gwv1.Namespace(gr.gateway.Namespace)
	group, kind := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway")
	ref := gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gwv1.ObjectName(gr.gateway.Name)}
	w.appendAncestors(st, gr, ref, reached)
}

// reachTargets records in reached the policy targets that cluster c
// connects to: a Service or ServiceImport port, or a Backend's endpoint
// ports.
func (w *world) reachTargets(reached map[*policyResult]map[int]bool, c ir.Cluster) {
	key, port, ok := w.clusterPort(c)
	sections := []string{port.Name}
	if !ok {
		key, sections, ok = w.egClusterTarget(c)
	}
	if !ok {
		return
	}
	for _, ref := range w.backendTLS.byBackend[key] {
		if s := ref.p.targets[ref.i].target.section; s != "" && !slices.Contains(sections, s) {
			continue
		}
		if reached[ref.p] == nil {
			reached[ref.p] = map[int]bool{}
		}
		reached[ref.p][ref.i] = true
	}
}

// appendAncestors adds the entry for ancestor ref of every policy whose
// targets reached holds, in policy order.
func (w *world) appendAncestors(st map[types.NamespacedName][]gwv1.PolicyAncestorStatus, gr *gatewayResult, ref gwv1.ParentReference,
	reached map[*policyResult]map[int]bool) {
	for _, pr := range w.backendTLS.policies {
		if reached[pr] == nil {
			continue
		}
		p := pr.policy
		key := keyOf(p.Namespace, p.Name)
		st[key] = append(st[key], gwv1.PolicyAncestorStatus{
			AncestorRef:    *ref.DeepCopy(),
			ControllerName: gr.class.Spec.ControllerName,
			Conditions:     stamp(pr.ancestorConditions(reached[pr], ProfileOf(w.opts, gr.class).Status), p.Generation, w.opts.Now),
		})
	}
}

// clusterPort finds the Service or ServiceImport port a cluster was built
// for; an implementation's own backend has none.
func (w *world) clusterPort(c ir.Cluster) (backendKey, corev1.ServicePort, bool) {
	ns, name, _ := strings.Cut(c.Service, "/")
	obj, ok := w.backendObject(backendKey{Kind: c.Kind, NamespacedName: keyOf(ns, name)})
	if !ok {
		return backendKey{}, corev1.ServicePort{}, false
	}
	for _, p := range obj.ports {
		if name, _ := clusterName(obj.key, p); name == c.Name {
			return obj.key, p, true
		}
	}
	return backendKey{}, corev1.ServicePort{}, false
}

// ancestorConditions are the conditions of the policy for a Gateway that
// reaches the targets whose indexes are in reached.
func (pr *policyResult) ancestorConditions(reached map[int]bool, choices profile.StatusChoices) []condition {
	var applied, udp, conflicts, notes []string
	for i, t := range pr.targets {
		if !reached[i] {
			continue
		}
		switch {
		case t.winner != nil:
			conflicts = append(conflicts, describeConflict(t.winner, pr.policy, t.target))
		case t.udp:
			udp = append(udp, describeTarget(t.target))
		default:
			applied = append(applied, describeTarget(t.target))
			if t.mixed {
				notes = append(notes, fmt.Sprintf("the UDP ports of %s get no TLS", describeTarget(t.target)))
			}
		}
	}
	accepted := string(gwv1.PolicyConditionAccepted)
	var c condition
	switch {
	case len(applied) == 0 && len(udp) == 0:
		c = falseCond(accepted, string(gwv1.PolicyReasonConflicted), strings.Join(conflicts, "; "))
		if choices.EnvoyBackendTLSPolicies {
			return []condition{c}
		}
	case pr.invalid != nil:
		c = *pr.invalid
	case len(applied) == 0:
		c = falseCond(accepted, string(gwv1.PolicyReasonInvalid),
			fmt.Sprintf("%s is UDP; BackendTLSPolicy applies to TCP only", strings.Join(udp, ", ")))
	default:
		for _, u := range udp {
			notes = append(notes, u+" is UDP and gets no TLS")
		}
		if len(conflicts) > 0 {
			notes = append(notes, "it does not apply where another policy takes precedence: "+strings.Join(conflicts, "; "))
		}
		msg := "accepted for " + strings.Join(applied, ", ")
		if len(notes) > 0 {
			msg += "; " + strings.Join(notes, "; ")
		}
		c = trueCond(accepted, string(gwv1.PolicyReasonAccepted), msg)
	}
	return []condition{c, pr.refs}
}

// sortPolicyAncestors orders each policy's entries by Gateway namespace
// and name, then controllerName: Gateways are laid out in map order.
func sortPolicyAncestors(st map[types.NamespacedName][]gwv1.PolicyAncestorStatus) {
	for k, list := range st {
		slices.SortFunc(list, func(a, b gwv1.PolicyAncestorStatus) int {
			return cmp.Or(cmp.Compare(*a.AncestorRef.Namespace, *b.AncestorRef.Namespace),
				cmp.Compare(a.AncestorRef.Name, b.AncestorRef.Name),
				cmp.Compare(deref(a.AncestorRef.SectionName), deref(b.AncestorRef.SectionName)),
				cmp.Compare(deref(a.AncestorRef.Port), deref(b.AncestorRef.Port)),
				cmp.Compare(a.ControllerName, b.ControllerName))
		})
		st[k] = CapPolicyAncestors(list)
	}
}

// MaxPolicyAncestors is how many entries PolicyStatus.Ancestors holds at
// most (the CRD's maxItems): "If this slice is full, implementations MUST
// NOT add further entries" (PolicyStatus godoc).
const MaxPolicyAncestors = 16

// CapPolicyAncestors keeps the first MaxPolicyAncestors entries of a
// sorted ancestors list, so that which entries stay depends on the sort
// order alone.
func CapPolicyAncestors(list []gwv1.PolicyAncestorStatus) []gwv1.PolicyAncestorStatus {
	if len(list) > MaxPolicyAncestors {
		return list[:MaxPolicyAncestors]
	}
	return list
}

// targetNouns names the kinds of object the policy's targets select:
// "Service", "ServiceImport" or "Service and ServiceImport".
func (pr *policyResult) targetNouns() string {
	var kinds []string
	for _, t := range pr.targets {
		if k := t.target.backend.kind(); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	return strings.Join(kinds, " and ")
}

// policyFindings returns the findings about targetRefs that select
// nothing, and, for each policy that no Gateway reaches (so that no status
// shows its problems), those problems and a note that it has no effect.
func (r backendTLSResult) policyFindings(st map[types.NamespacedName][]gwv1.PolicyAncestorStatus, sources diag.Sources) []diag.Finding {
	out := slices.Clone(r.findings)
	for _, pr := range r.policies {
		p := pr.policy
		if _, ok := st[keyOf(p.Namespace, p.Name)]; ok {
			continue
		}
		out = append(out, pr.findings...)
		if len(pr.targets) > 0 {
			ref := diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: p.Namespace, Name: p.Name}
			out = append(out, diag.Finding{
				Severity: diag.Info, Object: ref, Source: sources.Of(ref), Field: "spec.targetRefs", Reason: diag.ReasonNoEffect,
				Message: fmt.Sprintf("no Gateway of gwsim routes to the %s ports this policy targets, so it applies nowhere and has no status", pr.targetNouns()),
			})
		}
	}
	return out
}
