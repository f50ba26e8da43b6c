package controller

import (
	"cmp"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// mergeParents returns a route's status.parents after one Gateway's
// reconcile: the existing entries for which replaced is true give way to
// computed (whose condition times are kept where the status held), every
// other entry stays. Several controllers share status.parents, so an entry
// gwsim does not own, or owns for another parent, is never touched.
//
// Entries are ordered by the index of their parentRef in specRefs, then by
// controllerName; entries whose parentRef is not in specRefs go last, by
// parentRef. The order is a function of the contents alone, so that merging
// the same entries in another order writes nothing.
func mergeParents(routeNS string, specRefs []gwv1.ParentReference, existing, computed []gwv1.RouteParentStatus, replaced func(gwv1.RouteParentStatus) bool) []gwv1.RouteParentStatus {
	// Each entry's rank is computed once, not per comparison. Entries of
	// one rank below len(specRefs) name the same parent, so only the
	// others need their parentKey to be ordered.
	type ranked struct {
		status gwv1.RouteParentStatus
		key    string
		rank   int
	}
	entries := make([]ranked, 0, len(existing)+len(computed))
	add := func(p gwv1.RouteParentStatus) {
		rank := slices.IndexFunc(specRefs, func(ref gwv1.ParentReference) bool { return sameParent(routeNS, ref, p.ParentRef) })
		key := ""
		if rank < 0 {
			rank, key = len(specRefs), parentKey(routeNS, p.ParentRef)
		}
		entries = append(entries, ranked{status: p, key: key, rank: rank})
	}
	for _, p := range existing {
		if !replaced(p) {
			add(*p.DeepCopy())
		}
	}
	for _, c := range computed {
		add(keepParentTimes(routeNS, existing, c))
	}
	slices.SortStableFunc(entries, func(a, b ranked) int {
		return cmp.Or(
			cmp.Compare(a.rank, b.rank),
			cmp.Compare(a.key, b.key),
			cmp.Compare(a.status.ControllerName, b.status.ControllerName),
		)
	})
	if len(entries) == 0 {
		return nil
	}
	out := make([]gwv1.RouteParentStatus, len(entries))
	for i, e := range entries {
		out[i] = e.status
	}
	return out
}
