package controller

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Parent kinds a route may attach to through gwsim.
const (
	kindGateway     = "Gateway"
	kindListenerSet = "ListenerSet"
)

// parentTarget returns the kind and key of the object a route's parentRef
// names, applying the API defaults (group gateway.networking.k8s.io, kind
// Gateway, the route's namespace). An empty group counts as Gateway API's,
// as the index table's contract says. ok is false for parents outside the
// Gateway API group, which gwsim never attaches to.
func parentTarget(routeNS string, ref gwv1.ParentReference) (kind string, key types.NamespacedName, ok bool) {
	return target(routeNS, ref.Group, ref.Kind, ref.Namespace, ref.Name)
}

func target(ns string, group *gwv1.Group, kind *gwv1.Kind, refNS *gwv1.Namespace, name gwv1.ObjectName) (string, types.NamespacedName, bool) {
	if group != nil && *group != "" && *group != gwv1.GroupName {
		return "", types.NamespacedName{}, false
	}
	k := kindGateway
	if kind != nil && *kind != "" {
		k = string(*kind)
	}
	if refNS != nil && *refNS != "" {
		ns = string(*refNS)
	}
	return k, types.NamespacedName{Namespace: ns, Name: string(name)}, true
}

// parentKey renders a parentRef with its defaults applied, so that two refs
// that mean the same parent compare equal however they were spelled.
func parentKey(routeNS string, ref gwv1.ParentReference) string {
	group := gwv1.GroupName
	if ref.Group != nil && *ref.Group != "" {
		group = string(*ref.Group)
	}
	kind := kindGateway
	if ref.Kind != nil && *ref.Kind != "" {
		kind = string(*ref.Kind)
	}
	ns := routeNS
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	section := ""
	if ref.SectionName != nil {
		section = string(*ref.SectionName)
	}
	port := ""
	if ref.Port != nil {
		port = fmt.Sprint(*ref.Port)
	}
	return fmt.Sprintf("%s/%s %s/%s section=%s port=%s", group, kind, ns, ref.Name, section, port)
}
