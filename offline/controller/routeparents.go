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
	// Each entry's parentRef key and rank are computed once, not per
	// comparison.
	type ranked struct {
		status gwv1.RouteParentStatus
		key    string
		rank   int
	}
	index := map[string]int{}
	for i, ref := range specRefs {
		if _, dup := index[parentKey(routeNS, ref)]; !dup {
			index[parentKey(routeNS, ref)] = i
		}
	}
	entries := make([]ranked, 0, len(existing)+len(computed))
	add := func(p gwv1.RouteParentStatus) {
		key := parentKey(routeNS, p.ParentRef)
		rank, ok := index[key]
		if !ok {
			rank = len(specRefs)
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
	var out []gwv1.RouteParentStatus
	for _, e := range entries {
		out = append(out, e.status)
	}
	return out
}
