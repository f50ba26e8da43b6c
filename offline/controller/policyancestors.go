package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// writePolicies merges one Gateway's ancestor entries (computed, per
// policy) into the status of every BackendTLSPolicy that the Gateway's
// slice holds or whose status has an entry for the Gateway: the latter are
// the policies the Gateway may no longer reach, whose entry must go.
func (r *GatewayReconciler) writePolicies(ctx context.Context, gw types.NamespacedName, s *slice,
	computed map[types.NamespacedName][]gwv1.PolicyAncestorStatus) error {
	for _, p := range s.policies() {
		ours := func(a gwv1.PolicyAncestorStatus) bool {
			kind, key, ok := target(p.Namespace, a.AncestorRef.Group, a.AncestorRef.Kind, a.AncestorRef.Namespace, a.AncestorRef.Name)
			return ok && kind == kindGateway && key == gw && owns(r.Options, string(a.ControllerName))
		}
		var mine []gwv1.PolicyAncestorStatus
		for _, c := range computed[client.ObjectKeyFromObject(p)] {
			if ours(c) {
				mine = append(mine, c)
			}
		}
		err := retryOnConflict(ctx, r.Client, p, func() client.Object { return &gwv1.BackendTLSPolicy{} }, func(obj client.Object) bool {
			p := obj.(*gwv1.BackendTLSPolicy)
			merged := mergeAncestors(p.Namespace, p.Status.Ancestors, mine, ours)
			if equality.Semantic.DeepEqual(p.Status.Ancestors, merged) {
				return false
			}
			p.Status.Ancestors = merged
			return true
		})
		if err != nil {
			return fmt.Errorf("writing status of BackendTLSPolicy %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return nil
}

// gatherAncestorPolicies lists the BackendTLSPolicies whose status has an
// entry for the Gateway, which writePolicies may have to drop.
func (r *GatewayReconciler) gatherAncestorPolicies(ctx context.Context, s *slice, gwKey string) error {
	listed, err := ListObjects(ctx, r.Client, &gwv1.BackendTLSPolicyList{}, matching(FieldAncestorGateway, gwKey), CachedRead)
	if err != nil {
		return fmt.Errorf("listing BackendTLSPolicies with status for Gateway %s: %w", gwKey, err)
	}
	for _, o := range listed {
		p := o.(*gwv1.BackendTLSPolicy)
		if !slices.ContainsFunc(s.in.BackendTLSPolicies, func(q *gwv1.BackendTLSPolicy) bool { return q.Namespace == p.Namespace && q.Name == p.Name }) {
			s.ancestorPolicies = append(s.ancestorPolicies, p)
		}
	}
	return nil
}

// policies are the BackendTLSPolicies whose status the Gateway's
// reconcile may write: those of the slice, then those only listed by
// ancestor.
func (s *slice) policies() []*gwv1.BackendTLSPolicy {
	return append(slices.Clone(s.in.BackendTLSPolicies), s.ancestorPolicies...)
}

// mergeAncestors returns a policy's status.ancestors after one Gateway's
// reconcile: the existing entries for which replaced is true give way to
// computed (whose condition times are kept where the status held), every
// other entry stays. The list is a map keyed by ancestorRef and
// controllerName that several controllers share, so no entry of another
// controller or ancestor is touched. Entries are sorted by that key, so
// that merging the same entries in another order writes nothing, and
// capped at translate.MaxPolicyAncestors after sorting.
func mergeAncestors(policyNS string, existing, computed []gwv1.PolicyAncestorStatus, replaced func(gwv1.PolicyAncestorStatus) bool) []gwv1.PolicyAncestorStatus {
	var out []gwv1.PolicyAncestorStatus
	for _, a := range existing {
		if !replaced(a) {
			out = append(out, *a.DeepCopy())
		}
	}
	for _, c := range computed {
		next := *c.DeepCopy()
		for _, a := range existing {
			if a.ControllerName == c.ControllerName && compareAncestorRefs(policyNS, a.AncestorRef, c.AncestorRef) == 0 {
				next.Conditions = keepTimes(a.Conditions, c.Conditions)
				break
			}
		}
		out = append(out, next)
	}
	slices.SortStableFunc(out, func(a, b gwv1.PolicyAncestorStatus) int {
		return cmp.Or(compareAncestorRefs(policyNS, a.AncestorRef, b.AncestorRef), cmp.Compare(a.ControllerName, b.ControllerName))
	})
	return translate.CapPolicyAncestors(out)
}

// compareAncestorRefs orders ancestorRefs by group, kind, namespace, name,
// sectionName and port, the namespace filled in (the policy's). For
// Gateways of one group this is translate's order (by namespace, then
// name).
func compareAncestorRefs(policyNS string, a, b gwv1.ParentReference) int {
	fields := func(r gwv1.ParentReference) []string {
		group, kind := string(deref(r.Group)), string(deref(r.Kind))
		ns := policyNS
		if r.Namespace != nil && *r.Namespace != "" {
			ns = string(*r.Namespace)
		}
		section, port := "", ""
		if r.SectionName != nil {
			section = string(*r.SectionName)
		}
		if r.Port != nil {
			port = fmt.Sprintf("%05d", *r.Port)
		}
		return []string{group, kind, ns, string(r.Name), section, port}
	}
	return slices.Compare(fields(a), fields(b))
}
