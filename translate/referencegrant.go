package translate

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// grantRef describes one side of a cross-namespace reference.
type grantRef struct {
	Group, Kind, Namespace, Name string
}

// allowedByGrant reports whether a reference from `from` to `to` is
// permitted. References within one namespace always are; across namespaces a
// ReferenceGrant in the target's namespace must list the referrer's group,
// kind and namespace in `from` and the target's group, kind and (when the
// grant names one) name in `to`.
func (w *world) allowedByGrant(from, to grantRef) bool {
	if from.Namespace == to.Namespace {
		return true
	}
	for _, g := range w.grantsByNS[to.Namespace] {
		if grantAllows(g, from, to) {
			return true
		}
	}
	return false
}

func grantAllows(g *gwv1.ReferenceGrant, from, to grantRef) bool {
	fromOK := false
	for _, f := range g.Spec.From {
		if string(f.Group) == from.Group && string(f.Kind) == from.Kind && string(f.Namespace) == from.Namespace {
			fromOK = true
			break
		}
	}
	if !fromOK {
		return false
	}
	for _, t := range g.Spec.To {
		if string(t.Group) == to.Group && string(t.Kind) == to.Kind && (t.Name == nil || string(*t.Name) == to.Name) {
			return true
		}
	}
	return false
}
