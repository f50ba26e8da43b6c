package controller

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// parameters is what a parametersRef resolves to in the slice of the world
// Translate gets: the ConfigMap it names, or the object of a kind gwsim
// does not decode (from Env.OtherObjects, not the store). Both are empty
// when the reference resolves to nothing; Translate reports that as
// InvalidParameters.
type parameters struct {
	configMap *corev1.ConfigMap
	other     *translate.OtherObject
}

// addTo adds what p holds to in, unless in holds it already.
func (p parameters) addTo(in *translate.Input) {
	if p.configMap != nil && !slices.ContainsFunc(in.ConfigMaps, func(o *corev1.ConfigMap) bool {
		return client.ObjectKeyFromObject(o) == client.ObjectKeyFromObject(p.configMap)
	}) {
		in.ConfigMaps = append(in.ConfigMaps, p.configMap)
	}
	if p.other != nil && !slices.Contains(in.OtherObjects, *p.other) {
		in.OtherObjects = append(in.OtherObjects, *p.other)
	}
}

// resolveParameters finds what a parametersRef names: a ConfigMap through
// the client, anything else among e.OtherObjects. key.Namespace is ""
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
