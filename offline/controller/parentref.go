package controller

import (
	"strconv"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Parent kinds a route may attach to through gwsim.
const (
	kindGateway     = "Gateway"
	kindListenerSet = "ListenerSet"
)

// parentTarget returns the kind and key of the object a route's parentRef
// names (in the route's namespace when it names none). ok is false for
// parents outside the Gateway API group, which gwsim never attaches to.
func parentTarget(routeNS string, ref gwv1.ParentReference) (kind string, key types.NamespacedName, ok bool) {
	return target(routeNS, ref.Group, ref.Kind, ref.Namespace, ref.Name)
}

// target is parentTarget for a reference's fields. The reconcilers, like
// translate, read objects as a cluster stores them: the CRDs default a
// parentRef's (and a status ancestorRef's) group and kind to a Gateway's,
// and the loader (offline/load) or offline/defaulting applies it, so group
// and kind are read as they are; nil reads as empty.
func target(ns string, group *gwv1.Group, kind *gwv1.Kind, refNS *gwv1.Namespace, name gwv1.ObjectName) (string, types.NamespacedName, bool) {
	if deref(group) != gwv1.GroupName {
		return "", types.NamespacedName{}, false
	}
	if refNS != nil && *refNS != "" {
		ns = string(*refNS)
	}
	return string(deref(kind)), types.NamespacedName{Namespace: ns, Name: string(name)}, true
}

// parentKey renders a parentRef with the route's namespace filled in, so
// that two refs that mean the same parent compare equal however they were
// spelled (group and kind are the CRD's defaults when not written; see
// target).
func parentKey(routeNS string, ref gwv1.ParentReference) string {
	group, kind := deref(ref.Group), deref(ref.Kind)
	ns := refNamespace(routeNS, ref.Namespace)
	section := ""
	if ref.SectionName != nil {
		section = string(*ref.SectionName)
	}
	port := ""
	if ref.Port != nil {
		port = strconv.FormatInt(int64(*ref.Port), 10)
	}
	// One concatenation, not fmt: a reconcile computes a key per parent
	// status of every route it writes.
	return string(group) + "/" + string(kind) + " " + ns + "/" + string(ref.Name) + " section=" + section + " port=" + port
}

// sameParent reports whether two parentRefs of a route in routeNS name the
// same parent: whether their parentKeys are equal, without building them.
func sameParent(routeNS string, a, b gwv1.ParentReference) bool {
	return a.Name == b.Name && deref(a.Group) == deref(b.Group) && deref(a.Kind) == deref(b.Kind) &&
		refNamespace(routeNS, a.Namespace) == refNamespace(routeNS, b.Namespace) &&
		deref(a.SectionName) == deref(b.SectionName) &&
		(a.Port == nil) == (b.Port == nil) && (a.Port == nil || *a.Port == *b.Port)
}

// refNamespace is a reference's namespace: its own when set, else from.
func refNamespace(from string, ns *gwv1.Namespace) string {
	if ns != nil && *ns != "" {
		return string(*ns)
	}
	return from
}

// deref is *p, or the zero value when p is nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
