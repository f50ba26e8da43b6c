package translate

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"
)

// gwsim routes to two kinds of backend itself: core Services, and the
// ServiceImports of the Multi-Cluster Services API (GEP-1748, Extended
// support), which stand for a Service's endpoints across a ClusterSet.
// "Multi-Cluster Services can be used within Gateway API wherever Services
// can be used", so both go through one path: the backendRef's port must be
// one of the object's ports, a reference into another namespace needs a
// ReferenceGrant for the object's group and kind, a missing object is
// assumed by the open-world rule, EndpointSlices give the endpoints, and a
// BackendTLSPolicy may target either. Every other kind is an
// implementation's own (rule_extension.go).

// serviceImportKind is how the IR's clusters (ir.Cluster.Kind) and the
// open world (KindName) name the ServiceImport kind.
const serviceImportKind = mcsv1alpha1.GroupName + "/" + mcsv1alpha1.ServiceImportKindName

// backendKey names an object gwsim routes to: a core Service (Kind "") or
// a ServiceImport (Kind serviceImportKind).
type backendKey struct {
	Kind string
	types.NamespacedName
}

func serviceKey(ns, name string) backendKey {
	return backendKey{NamespacedName: keyOf(ns, name)}
}

// backendKeyOf returns the key of a reference to group/kind ns/name when
// it names a kind gwsim routes to itself.
func backendKeyOf(group, kind, ns, name string) (backendKey, bool) {
	switch {
	case group == "" && kind == "Service":
		return serviceKey(ns, name), true
	case group == mcsv1alpha1.GroupName && kind == mcsv1alpha1.ServiceImportKindName:
		return backendKey{Kind: serviceImportKind, NamespacedName: keyOf(ns, name)}, true
	}
	return backendKey{}, false
}

// group and kind are the API group and kind of the object k names.
func (k backendKey) group() string {
	if k.Kind == "" {
		return ""
	}
	return mcsv1alpha1.GroupName
}

func (k backendKey) kind() string {
	return backendNoun(k.Kind)
}

// String names the object as messages do: "Service ns/name",
// "ServiceImport ns/name".
func (k backendKey) String() string {
	return k.kind() + " " + k.NamespacedName.String()
}

// backendNoun is the kind, as messages name it, of the object behind a
// cluster of the given ir.Cluster.Kind.
func backendNoun(clusterKind string) string {
	switch clusterKind {
	case "":
		return "Service"
	case serviceImportKind:
		return mcsv1alpha1.ServiceImportKindName
	}
	return clusterKind
}

// backendObject is a Service or a ServiceImport as routing sees it: its
// ports, as Service ports (a ServiceImport port has the same name,
// protocol, appProtocol and port fields), so that port lookup, appProtocol
// checks and clusters are the same for both.
type backendObject struct {
	key   backendKey
	ports []corev1.ServicePort
	// src is what the object was read from (the input's *corev1.Service or
	// *mcsv1alpha1.ServiceImport, or the assumed *backendObject): a
	// pointer, so that memos keyed by it hash no strings.
	src any
}

// inputBackend returns the object k names when the input holds it. A key
// of any other kind (an extension cluster's) names nothing here.
func (w *world) inputBackend(k backendKey) (backendObject, bool) {
	switch k.Kind {
	case "":
		if svc, ok := w.services[k.NamespacedName]; ok {
			return backendObject{key: k, ports: svc.Spec.Ports, src: svc}, true
		}
	case serviceImportKind:
		if si, ok := w.serviceImports[k.NamespacedName]; ok {
			return backendObject{key: k, ports: importPorts(si), src: si}, true
		}
	}
	return backendObject{}, false
}

// slicesOf returns the EndpointSlices of the Service or ServiceImport k.
func (w *world) slicesOf(k backendKey) []*discoveryv1.EndpointSlice {
	if k.Kind == serviceImportKind {
		return w.slicesByImport[k.NamespacedName]
	}
	return w.slicesBySvc[k.NamespacedName]
}

// backendObject returns the object k names: the input's, or the one
// assumed for it.
func (w *world) backendObject(k backendKey) (backendObject, bool) {
	if b, ok := w.inputBackend(k); ok {
		return b, true
	}
	b, ok := w.assumed.backends[k]
	if !ok {
		return backendObject{}, false
	}
	return *b, true
}

// importPorts returns a ServiceImport's spec.ports as Service ports.
func importPorts(si *mcsv1alpha1.ServiceImport) []corev1.ServicePort {
	out := make([]corev1.ServicePort, len(si.Spec.Ports))
	for i, p := range si.Spec.Ports {
		out[i] = corev1.ServicePort{Name: p.Name, Protocol: p.Protocol, AppProtocol: p.AppProtocol, Port: p.Port}
	}
	return out
}

// clusterSetAddress is the name a ServiceImport has across its ClusterSet
// (KEP-1645 DNS, <name>.<namespace>.svc.clusterset.local): where a
// gateway sends the traffic of a ServiceImport backend, as
// <name>.<namespace>.svc.cluster.local is for a Service's. GEP-1748 draws
// the same line between the two kinds.
func clusterSetAddress(k backendKey) string {
	return fmt.Sprintf("%s.%s.svc.clusterset.local", k.Name, k.Namespace)
}

// otherVersionOnly reports a ServiceImport that the input holds only in a
// version gwsim does not decode (only v1alpha1 is): it resolves as an
// implementation's own object does, as an opaque backend.
func (w *world) otherVersionOnly(k backendKey) bool {
	if k.Kind == "" {
		return false
	}
	_, ok := w.serviceImports[k.NamespacedName]
	return !ok && w.others[OtherObject{Group: k.group(), Kind: k.kind(), Namespace: k.Namespace, Name: k.Name}]
}
