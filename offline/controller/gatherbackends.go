package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"
)

// backendKind is a kind of object that routes send traffic to and that
// Translate routes to itself: a core Service, or a ServiceImport
// (GEP-1748). Each is read with its EndpointSlices and the
// BackendTLSPolicies targeting it, through its own field indexes.
type backendKind struct {
	group, kind string
	newObject   func() client.Object
	// sliceField and policyField are the indexes of the EndpointSlices
	// and of the BackendTLSPolicies of one object of the kind.
	sliceField, policyField string
}

// backendKinds are the kinds gatherBackends reads, in the order it reads
// them.
func backendKinds() []backendKind {
	return []backendKind{
		{kind: "Service", newObject: func() client.Object { return &corev1.Service{} },
			sliceField: FieldServiceName, policyField: FieldTargetService},
		{group: mcsv1alpha1.GroupName, kind: mcsv1alpha1.ServiceImportKindName,
			newObject:  func() client.Object { return &mcsv1alpha1.ServiceImport{} },
			sliceField: FieldServiceImportName, policyField: FieldTargetServiceImport},
	}
}

// names reports whether a reference to group/kind names an object of k.
// The CRDs default a backendRef's group and kind to a core Service's; the
// loader applies it.
func (k backendKind) names(group *gwv1.Group, kind *gwv1.Kind) bool {
	return string(deref(group)) == k.group && string(deref(kind)) == k.kind
}

// gatherBackends gets the Services and ServiceImports the listed routes
// name and, per object named (found or not: the open world may assume
// it), its EndpointSlices and the BackendTLSPolicies targeting it.
// Backends of other kinds that the input holds as other objects are added
// as such (extension.go), and so is a ServiceImport the input holds only
// in a version gwsim does not decode.
func (r *GatewayReconciler) gatherBackends(ctx context.Context, s *slice) error {
	kinds := backendKinds()
	keys := make([][]types.NamespacedName, len(kinds))
	for _, rt := range s.routes {
		for _, ref := range rt.kind.Backends(rt.obj) {
			key, i := backendTarget(kinds, rt.obj.GetNamespace(), ref)
			if i != 0 {
				s.addOther(r.Env, rt.obj.GetNamespace(), ref)
			}
			if i < 0 {
				continue
			}
			if key.Namespace != rt.obj.GetNamespace() {
				s.grantNamespaces[key.Namespace] = true
			}
			keys[i] = append(keys[i], key)
		}
	}
	seen := gathered{policies: map[types.NamespacedName]bool{}, slices: map[types.NamespacedName]bool{}}
	for i, k := range kinds {
		for _, key := range sortedUniqueKeys(keys[i]) {
			if err := r.gatherBackend(ctx, s, k, key, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// backendTarget returns the object a backendRef from namespace ns names
// and the index of its kind in kinds, or -1 for a kind of none of them.
func backendTarget(kinds []backendKind, ns string, ref gwv1.BackendObjectReference) (types.NamespacedName, int) {
	for i, k := range kinds {
		if k.names(ref.Group, ref.Kind) {
			if ref.Namespace != nil && *ref.Namespace != "" {
				ns = string(*ref.Namespace)
			}
			return types.NamespacedName{Namespace: ns, Name: string(ref.Name)}, i
		}
	}
	return types.NamespacedName{}, -1
}

// gathered holds the EndpointSlices and BackendTLSPolicies added to a
// slice: a policy may target several of its backends, and an
// EndpointSlice may carry the labels of a Service and of a ServiceImport.
type gathered struct {
	policies, slices map[types.NamespacedName]bool
}

// gatherBackend adds to s the object key of kind k, when it exists, with
// its EndpointSlices and the policies targeting it that seen does not
// hold yet.
func (r *GatewayReconciler) gatherBackend(ctx context.Context, s *slice, k backendKind, key types.NamespacedName, seen gathered) error {
	d, policies, err := r.readBackend(ctx, k, key)
	if err != nil {
		return err
	}
	if d.obj != nil {
		s.in.Add(d.obj)
	}
	for _, es := range d.slices {
		if !seen.slices[client.ObjectKeyFromObject(es)] {
			seen.slices[client.ObjectKeyFromObject(es)] = true
			s.in.EndpointSlices = append(s.in.EndpointSlices, es)
		}
	}
	for _, o := range policies {
		// A policy targeting several of the objects is listed once per object.
		if seen.policies[client.ObjectKeyFromObject(o)] {
			continue
		}
		seen.policies[client.ObjectKeyFromObject(o)] = true
		s.in.BackendTLSPolicies = append(s.in.BackendTLSPolicies, o.(*gwv1.BackendTLSPolicy))
	}
	return nil
}

// readBackend reads the object key of kind k (nil when it does not exist),
// its EndpointSlices and the BackendTLSPolicies targeting it, through
// r.Reads: Gateways whose routes share a backend read it once per loop,
// and the policies only when some target it.
func (r *GatewayReconciler) readBackend(ctx context.Context, k backendKind, key types.NamespacedName) (*backendDeps, []client.Object, error) {
	mk := backendMemoKey{kind: k.kind, key: key}
	d, epoch := r.Reads.backend(mk)
	fresh := d == nil
	if fresh {
		var err error
		if d, err = r.readBackendObjects(ctx, k, key); err != nil {
			return nil, nil, err
		}
	} else if d.noPolicies {
		return d, nil, nil
	}
	policies, err := ListObjects(ctx, r.Client, &gwv1.BackendTLSPolicyList{}, matching(k.policyField, key.String()), CachedRead)
	if err != nil {
		return nil, nil, fmt.Errorf("listing BackendTLSPolicies of %s %s: %w", k.kind, key, err)
	}
	if fresh {
		d.noPolicies = len(policies) == 0
		r.Reads.rememberBackend(epoch, mk, d)
	}
	return d, policies, nil
}

// readBackendObjects reads the object key of kind k and its EndpointSlices.
func (r *GatewayReconciler) readBackendObjects(ctx context.Context, k backendKind, key types.NamespacedName) (*backendDeps, error) {
	d := &backendDeps{}
	obj := k.newObject()
	found, err := getIfExists(ctx, r.Client, key, obj)
	if err != nil {
		return nil, err
	}
	if found {
		d.obj = obj
	}
	// An object the open world assumes has none, but policies may target
	// it and slices may name it all the same.
	eps, err := ListObjects(ctx, r.Client, &discoveryv1.EndpointSliceList{}, matching(k.sliceField, key.String()), CachedRead)
	if err != nil {
		return nil, fmt.Errorf("listing EndpointSlices of %s %s: %w", k.kind, key, err)
	}
	d.slices = make([]*discoveryv1.EndpointSlice, len(eps))
	for i, o := range eps {
		d.slices[i] = o.(*discoveryv1.EndpointSlice)
	}
	return d, nil
}
