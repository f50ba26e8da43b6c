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
	return from.Namespace == to.Namespace || w.grantFor(from, to) != nil
}

// grantFor returns the ReferenceGrant that permits a reference from `from`
// to `to` across namespaces, the first by name when several do, or nil.
func (w *world) grantFor(from, to grantRef) *gwv1.ReferenceGrant {
	var found *gwv1.ReferenceGrant
	for _, g := range w.grantsByNS[to.Namespace] {
		if grantAllows(g, from, to) && (found == nil || g.Name < found.Name) {
			found = g
		}
	}
	return found
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
