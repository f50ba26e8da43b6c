package controller

import (
	"context"
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// backendKind is a kind of object that routes send traffic to and that
// Translate routes to itself: a core Service, a ServiceImport
// (GEP-1748), or a vendor backend an implementation profile simulates. Each is read with the BackendTLSPolicies targeting it,
// through its own field index. Its EndpointSlices are not read: they
// matter to the IR alone, which the reconcilers do not build
// (translate.Options.StatusOnly).
type backendKind struct {
	group, kind string
	newObject   func() client.Object
	// policyField is the index of the BackendTLSPolicies targeting one
	// object of the kind.
	policyField string
}

// backendKinds are the kinds gatherBackends reads, in the order it reads
// them.
func backendKinds() []backendKind {
	return []backendKind{
		{kind: "Service", newObject: func() client.Object { return &corev1.Service{} }, policyField: FieldTargetService},
		{group: mcsv1alpha1.GroupName, kind: mcsv1alpha1.ServiceImportKindName,
			newObject: func() client.Object { return &mcsv1alpha1.ServiceImport{} }, policyField: FieldTargetServiceImport},
		// Read whatever the profile: Translate decides per route whether
		// its profile simulates the Backend or treats it as an extension
		// object, which gatherBackends adds as such too.
		{group: profile.BackendKind.Group, kind: profile.BackendKind.Kind,
			newObject: func() client.Object { return &egv1a1.Backend{} }, policyField: FieldTargetBackend},
	}
}

// names reports whether a reference to group/kind names an object of k.
// The CRDs default a backendRef's group and kind to a core Service's; the
// loader applies it.
func (k backendKind) names(group *gwv1.Group, kind *gwv1.Kind) bool {
	return string(deref(group)) == k.group && string(deref(kind)) == k.kind
}

// gatherBackends gets the Services, ServiceImports and Backends the listed
// routes name, the Backends the telemetry of the slice's EnvoyProxies
// names, and, per object named (found or not: the open world may assume
// it), the BackendTLSPolicies targeting it. Backends of other kinds that
// the input holds as other objects are added as such (translate/rule_extension.go), and
// so is a ServiceImport the input holds only in a version gwsim does not
// decode.
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
	// Envoy Gateway also reads the Backends and Services an EnvoyProxy's
	// telemetry names (translate.EnvoyProxyBackends, EnvoyProxyServices);
	// Translate decides whether the profile reads that EnvoyProxy.
	for i, k := range kinds {
		for _, ep := range s.in.EnvoyProxies {
			switch {
			case k.group == profile.BackendKind.Group && k.kind == profile.BackendKind.Kind:
				keys[i] = append(keys[i], translate.EnvoyProxyBackends(ep)...)
			case k.group == "" && k.kind == "Service":
				keys[i] = append(keys[i], translate.EnvoyProxyServices(ep)...)
			}
		}
	}
	anyPolicies, err := r.anyBackendTLSPolicies(ctx)
	if err != nil {
		return err
	}
	// A policy targeting several of the objects is listed once per object.
	seen := map[types.NamespacedName]bool{}
	for i, k := range kinds {
		for _, key := range sortedUniqueKeys(keys[i]) {
			obj, policies, err := r.readBackend(ctx, k, key, anyPolicies)
			if err != nil {
				return err
			}
			if obj != nil {
				s.in.Add(obj)
			}
			for _, o := range policies {
				if !seen[client.ObjectKeyFromObject(o)] {
					seen[client.ObjectKeyFromObject(o)] = true
					s.in.BackendTLSPolicies = append(s.in.BackendTLSPolicies, o.(*gwv1.BackendTLSPolicy))
				}
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

// readBackend reads the object key of kind k (nil when it does not exist)
// and the BackendTLSPolicies targeting it, through r.Reads: Gateways whose
// routes share a backend read the object once per loop, and the policies
// only when some target it.
// Without anyPolicies, no policy is listed.
func (r *GatewayReconciler) readBackend(ctx context.Context, k backendKind, key types.NamespacedName, anyPolicies bool) (client.Object, []client.Object, error) {
	mk := backendMemoKey{kind: k.kind, key: key}
	d, epoch := r.Reads.backend(mk)
	fresh := d == nil
	if fresh {
		d = &backendDeps{}
		obj, found, err := GetStored(ctx, r.Client, key, k.newObject())
		if err != nil {
			return nil, nil, err
		}
		if found {
			d.obj = obj
		}
	} else if d.noPolicies {
		return d.obj, nil, nil
	}
	if !anyPolicies {
		if fresh {
			d.noPolicies = true
			r.Reads.rememberBackend(epoch, mk, d)
		}
		return d.obj, nil, nil
	}
	// An object the open world assumes has none, but policies may target
	// it all the same.
	policies, err := ListObjects(ctx, r.Client, &gwv1.BackendTLSPolicyList{}, matching(k.policyField, key.String()), CachedRead)
	if err != nil {
		return nil, nil, fmt.Errorf("listing BackendTLSPolicies of %s %s: %w", k.kind, key, err)
	}
	if fresh {
		d.noPolicies = len(policies) == 0
		r.Reads.rememberBackend(epoch, mk, d)
	}
	return d.obj, policies, nil
}

// anyBackendTLSPolicies reports whether any BackendTLSPolicy exists, as
// r.Reads remembers it; without a memo it answers true, so that each
// backend's policies are listed.
func (r *GatewayReconciler) anyBackendTLSPolicies(ctx context.Context) (bool, error) {
	if r.Reads == nil {
		return true, nil
	}
	exist, ok, epoch := r.Reads.anyPolicies()
	if ok {
		return exist, nil
	}
	all, err := ListObjects(ctx, r.Client, &gwv1.BackendTLSPolicyList{}, CachedRead)
	if err != nil {
		return false, fmt.Errorf("listing BackendTLSPolicies: %w", err)
	}
	r.Reads.rememberPolicies(epoch, len(all) > 0)
	return len(all) > 0, nil
}
