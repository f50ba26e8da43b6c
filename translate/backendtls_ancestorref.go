package translate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// addParentRefAncestors adds the ancestor entries of a profile whose
// BackendTLSPolicy ancestors are route parentRefs (Envoy Gateway records,
// for each backendRef it applies a policy to, the parentRef the route was
// processed for, internal/gatewayapi/route.go applyBackendTLSSetting):
// one entry per distinct parentRef of the routes attached to Gateway gr
// whose clusters reach the policy's targets. The parentRef's namespace is
// written out (the Gateway's), since a policy reads an omitted one as its
// own namespace and the route meant the route's.
func (w *world) addParentRefAncestors(st map[types.NamespacedName][]gwv1.PolicyAncestorStatus, gr *gatewayResult, routes []attachedRoute) {
	type byRef struct {
		ref     gwv1.ParentReference
		reached map[*policyResult]map[int]bool
	}
	var order []string
	refs := map[string]*byRef{}
	for _, ar := range routes {
		ref := *ar.parent.ref.DeepCopy()
		ns := gwv1.Namespace(gr.gateway.Namespace)
		ref.Namespace = &ns
		k := parentRefKey(ref)
		e, ok := refs[k]
		if !ok {
			e = &byRef{ref: ref, reached: map[*policyResult]map[int]bool{}}
			refs[k] = e
			order = append(order, k)
		}
		for _, c := range ar.route.clusters {
			w.reachTargets(e.reached, *c)
		}
	}
	for _, k := range order {
		w.appendAncestors(st, gr, refs[k].ref, refs[k].reached)
	}
}

// parentRefKey tells parentRefs apart by every field.
func parentRefKey(r gwv1.ParentReference) string {
	return fmt.Sprintf("%s/%s %s/%s %s %d", deref(r.Group), deref(r.Kind), deref(r.Namespace), r.Name, deref(r.SectionName), deref(r.Port))
}
