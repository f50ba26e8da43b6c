package controller

import (
	"context"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// parameters is what a parametersRef resolves to in the slice of the world
// Translate gets: the ConfigMap it names, or the object of a kind gwsim
// does not decode (from Env.OtherObjects, not the store). Both are empty
// when the reference resolves to nothing; Translate reports that as
// InvalidParameters.
type parameters struct {
	configMap  *corev1.ConfigMap
	envoyProxy *egv1a1.EnvoyProxy
	other      *translate.OtherObject
}

// addTo adds what p holds to in, unless in holds it already.
func (p parameters) addTo(in *translate.Input) {
	if p.configMap != nil && !slices.ContainsFunc(in.ConfigMaps, func(o *corev1.ConfigMap) bool {
		return client.ObjectKeyFromObject(o) == client.ObjectKeyFromObject(p.configMap)
	}) {
		in.ConfigMaps = append(in.ConfigMaps, p.configMap)
	}
	if p.envoyProxy != nil && !slices.ContainsFunc(in.EnvoyProxies, func(o *egv1a1.EnvoyProxy) bool {
		return client.ObjectKeyFromObject(o) == client.ObjectKeyFromObject(p.envoyProxy)
	}) {
		in.EnvoyProxies = append(in.EnvoyProxies, p.envoyProxy)
	}
	if p.other != nil && !slices.Contains(in.OtherObjects, *p.other) {
		in.OtherObjects = append(in.OtherObjects, *p.other)
	}
}

// resolveParameters finds what a parametersRef names: a ConfigMap or an
// Envoy Gateway EnvoyProxy through the client, anything else among
// e.OtherObjects. key.Namespace is ""
// when the reference names none.
func (e Env) resolveParameters(ctx context.Context, group gwv1.Group, kind gwv1.Kind, key types.NamespacedName) (parameters, error) {
	if group == "" && kind == "ConfigMap" {
		if key.Namespace == "" {
			return parameters{}, nil
		}
		cm := &corev1.ConfigMap{}
		found, err := getIfExists(ctx, e.Client, key, cm)
		if err != nil || !found {
			return parameters{}, err
		}
		return parameters{configMap: cm}, nil
	}
	if string(group) == profile.EnvoyProxyKind.Group && string(kind) == profile.EnvoyProxyKind.Kind && key.Namespace != "" {
		ep := &egv1a1.EnvoyProxy{}
		found, err := getIfExists(ctx, e.Client, key, ep)
		if err != nil {
			return parameters{}, err
		}
		if found {
			return parameters{envoyProxy: ep}, nil
		}
	}
	id := translate.OtherObject{Group: string(group), Kind: string(kind), Namespace: key.Namespace, Name: key.Name}
	if slices.Contains(e.OtherObjects, id) {
		return parameters{other: &id}, nil
	}
	return parameters{}, nil
}

// classInput returns the Input that decides class's status: the class and
// what its parametersRef names, when there is one.
func (e Env) classInput(ctx context.Context, class *gwv1.GatewayClass) (translate.Input, error) {
	in := translate.Input{GatewayClasses: []*gwv1.GatewayClass{class}}
	ref := class.Spec.ParametersRef
	if ref == nil {
		return in, nil
	}
	key := types.NamespacedName{Name: ref.Name}
	if ref.Namespace != nil {
		key.Namespace = string(*ref.Namespace)
	}
	p, err := e.resolveParameters(ctx, ref.Group, ref.Kind, key)
	p.addTo(&in)
	return in, err
}

// gatherParameters adds to the slice what the Gateway's
// spec.infrastructure.parametersRef names (in the Gateway's namespace).
func (r *GatewayReconciler) gatherParameters(ctx context.Context, s *slice) error {
	gw := s.in.Gateways[0]
	if gw.Spec.Infrastructure == nil || gw.Spec.Infrastructure.ParametersRef == nil {
		return nil
	}
	ref := gw.Spec.Infrastructure.ParametersRef
	p, err := r.resolveParameters(ctx, ref.Group, ref.Kind, types.NamespacedName{Namespace: gw.Namespace, Name: ref.Name})
	p.addTo(&s.in)
	return err
}

// gatherMergedPeers adds, when the class's parametersRef names an
// EnvoyProxy that merges the class's Gateways into one data plane, the
// EnvoyProxy and the class's other Gateways, with the Secrets their
// listeners name: Translate decides the Gateway's listeners against
// theirs. Their routes are not read; no status of theirs is written here.
func (r *GatewayReconciler) gatherMergedPeers(ctx context.Context, s *slice) error {
	class := s.in.GatewayClasses[0]
	ref := class.Spec.ParametersRef
	if ref == nil || ref.Namespace == nil {
		return nil
	}
	p, err := r.resolveParameters(ctx, ref.Group, ref.Kind, types.NamespacedName{Namespace: string(*ref.Namespace), Name: ref.Name})
	if err != nil || p.envoyProxy == nil {
		return err
	}
	p.addTo(&s.in)
	if m := p.envoyProxy.Spec.MergeGateways; m == nil || !*m {
		return nil
	}
	peers, err := ListObjects(ctx, r.Client, &gwv1.GatewayList{}, matching(FieldGatewayClass, class.Name), CachedRead)
	if err != nil {
		return err
	}
	own := client.ObjectKeyFromObject(s.in.Gateways[0])
	for _, o := range peers {
		if client.ObjectKeyFromObject(o) != own {
			s.in.Gateways = append(s.in.Gateways, o.(*gwv1.Gateway))
		}
	}
	return nil
}
