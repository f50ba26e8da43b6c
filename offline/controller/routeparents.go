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
	var out []gwv1.RouteParentStatus
	for _, p := range existing {
		if !replaced(p) {
			out = append(out, *p.DeepCopy())
		}
	}
	for _, c := range computed {
		out = append(out, keepParentTimes(routeNS, existing, c))
	}
	index := map[string]int{}
	for i, ref := range specRefs {
		if _, dup := index[parentKey(routeNS, ref)]; !dup {
			index[parentKey(routeNS, ref)] = i
		}
	}
	rank := func(p gwv1.RouteParentStatus) int {
		if i, ok := index[parentKey(routeNS, p.ParentRef)]; ok {
			return i
		}
		return len(specRefs)
	}
	slices.SortStableFunc(out, func(a, b gwv1.RouteParentStatus) int {
		return cmp.Or(
			cmp.Compare(rank(a), rank(b)),
			cmp.Compare(parentKey(routeNS, a.ParentRef), parentKey(routeNS, b.ParentRef)),
			cmp.Compare(a.ControllerName, b.ControllerName),
		)
	})
	return out
}
