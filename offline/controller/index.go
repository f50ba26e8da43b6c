package controller

import (
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/profile"
)

// Index is one field index a store must serve: List with
// client.MatchingFields{Field: value} returns the objects of Object's kind
// for which Extract returns value.
type Index struct {
	Object  client.Object
	Field   string
	Extract client.IndexerFunc
	// Requeues is the kind of the reconciled objects the values name
	// ("ns/name" keys), for an index over status that the reconcile of
	// such an object lists by: a status write that adds or removes a value
	// requeues the object it names (the fixpoint loop's watches,
	// offline/watch.go). Indexes over spec need none: the reconcilers
	// write status alone, and any other write requeues everything.
	Requeues string
	// ReadsStatus means Extract reads the object's status. A store may
	// skip extracting the values of the other indexes again on a status
	// write, which cannot change them (store.Builder.WithSpecIndex);
	// TestSpecIndexesIgnoreStatus checks that those others do not read it.
	ReadsStatus bool
}

// Index field names. Values are "ns/name" keys, except FieldGatewayClass
// whose values are class names.
const (
	// FieldParentGateway indexes routes and ListenerSets by the Gateways
	// their parentRefs name.
	FieldParentGateway = "parentGateway"
	// FieldParentListenerSet indexes routes by the ListenerSets their
	// parentRefs name.
	FieldParentListenerSet = "parentListenerSet"
	// FieldBackendService indexes routes by the Services their backendRefs
	// (requestMirror targets included) name.
	FieldBackendService = "backendService"
	// FieldGatewayClass indexes Gateways by spec.gatewayClassName.
	FieldGatewayClass = "gatewayClassName"
	// FieldTargetService indexes BackendTLSPolicies by the Services their
	// targetRefs name.
	FieldTargetService = "targetService"
	// FieldTargetServiceImport indexes BackendTLSPolicies by the
	// ServiceImports their targetRefs name.
	FieldTargetServiceImport = "targetServiceImport"
	// FieldTargetBackend indexes BackendTLSPolicies by the Envoy Gateway
	// Backends their targetRefs name.
	FieldTargetBackend = "targetBackend"
	// FieldAncestorGateway indexes BackendTLSPolicies by the Gateways their
	// status.ancestors name (any controller's entries), so that a Gateway
	// finds the policies whose entry for it may have gone stale.
	FieldAncestorGateway = "ancestorGateway"
)

// Indexes returns every field index the reconcilers list with. ReferenceGrants
// need none (they are listed per namespace) and Secrets, Services,
// ServiceImports, GatewayClasses and Namespaces are read by key or listed
// whole. EndpointSlices are not read by the reconcilers at all: only the IR,
// which they do not build, looks at endpoints.
func Indexes() []Index {
	var out []Index
	for _, k := range RouteKinds() {
		out = append(out,
			Index{Object: k.New(), Field: FieldParentGateway, Extract: routeParents(k, kindGateway)},
			Index{Object: k.New(), Field: FieldParentListenerSet, Extract: routeParents(k, kindListenerSet)},
			Index{Object: k.New(), Field: FieldBackendService, Extract: routeBackends(k)},
		)
	}
	return append(out,
		Index{Object: &gwv1.ListenerSet{}, Field: FieldParentGateway, Extract: listenerSetParent},
		Index{Object: &gwv1.Gateway{}, Field: FieldGatewayClass, Extract: gatewayClassName},
		Index{Object: &gwv1.BackendTLSPolicy{}, Field: FieldTargetService, Extract: policyTargets("", "Service")},
		Index{Object: &gwv1.BackendTLSPolicy{}, Field: FieldTargetServiceImport, Extract: policyTargets(mcsv1alpha1.GroupName, mcsv1alpha1.ServiceImportKindName)},
		Index{Object: &gwv1.BackendTLSPolicy{}, Field: FieldTargetBackend, Extract: policyTargets(profile.BackendKind.Group, profile.BackendKind.Kind)},
		Index{Object: &gwv1.BackendTLSPolicy{}, Field: FieldAncestorGateway, Extract: policyAncestorGateways, Requeues: kindGateway, ReadsStatus: true},
	)
}

// routeParents extracts the keys of the parents of kind parentKind that a
// route of kind k names.
func routeParents(k RouteKind, parentKind string) client.IndexerFunc {
	return func(o client.Object) []string {
		spec, _ := k.Access(o)
		var out []string
		for _, ref := range spec.ParentRefs {
			if kind, key, ok := parentTarget(o.GetNamespace(), ref); ok && kind == parentKind {
				out = append(out, key.String())
			}
		}
		return sortedUnique(out)
	}
}

// routeBackends extracts the keys of the Services a route of kind k sends
// or mirrors traffic to.
func routeBackends(k RouteKind) client.IndexerFunc {
	return func(o client.Object) []string {
		var out []string
		for _, ref := range k.Backends(o) {
			if key, ok := serviceRef(o.GetNamespace(), ref); ok {
				out = append(out, key.String())
			}
		}
		return sortedUnique(out)
	}
}

// serviceRef returns the Service a backendRef names; ok is false for
// backends of any other kind. The CRD defaults group and kind to a core
// Service's; the loader applies it.
func serviceRef(ns string, ref gwv1.BackendObjectReference) (types.NamespacedName, bool) {
	if deref(ref.Group) != "" || deref(ref.Kind) != "Service" {
		return types.NamespacedName{}, false
	}
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	return types.NamespacedName{Namespace: ns, Name: string(ref.Name)}, true
}

func listenerSetParent(o client.Object) []string {
	ref := o.(*gwv1.ListenerSet).Spec.ParentRef
	kind, key, ok := target(o.GetNamespace(), ref.Group, ref.Kind, ref.Namespace, ref.Name)
	if !ok || kind != kindGateway {
		return nil
	}
	return []string{key.String()}
}

func gatewayClassName(o client.Object) []string {
	return []string{string(o.(*gwv1.Gateway).Spec.GatewayClassName)}
}

// policyTargets extracts the objects of group/kind a BackendTLSPolicy
// targets; targetRefs are local, so the namespace is the policy's.
func policyTargets(group, kind string) client.IndexerFunc {
	return func(o client.Object) []string {
		var out []string
		for _, ref := range o.(*gwv1.BackendTLSPolicy).Spec.TargetRefs {
			if string(ref.Group) == group && string(ref.Kind) == kind {
				out = append(out, types.NamespacedName{Namespace: o.GetNamespace(), Name: string(ref.Name)}.String())
			}
		}
		return sortedUnique(out)
	}
}

// policyAncestorGateways extracts the Gateways a BackendTLSPolicy's
// status.ancestors name.
func policyAncestorGateways(o client.Object) []string {
	var out []string
	for _, a := range o.(*gwv1.BackendTLSPolicy).Status.Ancestors {
		ref := a.AncestorRef
		if kind, key, ok := target(o.GetNamespace(), ref.Group, ref.Kind, ref.Namespace, ref.Name); ok && kind == kindGateway {
			out = append(out, key.String())
		}
	}
	return sortedUnique(out)
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
