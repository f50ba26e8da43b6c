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

// parametersConfigMap gets the ConfigMap a parametersRef names, the only
// parameters kind Translate resolves. It returns nil when the reference is
// to another kind, names no namespace, or names a ConfigMap that does not
// exist: Translate reports each of those as InvalidParameters.
func parametersConfigMap(ctx context.Context, c client.Client, group gwv1.Group, kind gwv1.Kind, key types.NamespacedName) (*corev1.ConfigMap, error) {
	if group != "" || kind != "ConfigMap" || key.Namespace == "" {
		return nil, nil
	}
	cm := &corev1.ConfigMap{}
	found, err := getIfExists(ctx, c, key, cm)
	if err != nil || !found {
		return nil, err
	}
	return cm, nil
}

// classInput returns the Input that decides class's status: the class and
// the ConfigMap its parametersRef names, when there is one.
func classInput(ctx context.Context, c client.Client, class *gwv1.GatewayClass) (translate.Input, error) {
	in := translate.Input{GatewayClasses: []*gwv1.GatewayClass{class}}
	ref := class.Spec.ParametersRef
	if ref == nil {
		return in, nil
	}
	key := types.NamespacedName{Name: ref.Name}
	if ref.Namespace != nil {
		key.Namespace = string(*ref.Namespace)
	}
	cm, err := parametersConfigMap(ctx, c, ref.Group, ref.Kind, key)
	if cm != nil {
		in.ConfigMaps = append(in.ConfigMaps, cm)
	}
	return in, err
}

// gatherParameters gets the ConfigMap the Gateway's
// spec.infrastructure.parametersRef names (in the Gateway's namespace),
// unless the slice already holds it as a CA bundle.
func (r *GatewayReconciler) gatherParameters(ctx context.Context, s *slice) error {
	gw := s.in.Gateways[0]
	if gw.Spec.Infrastructure == nil || gw.Spec.Infrastructure.ParametersRef == nil {
		return nil
	}
	ref := gw.Spec.Infrastructure.ParametersRef
	key := types.NamespacedName{Namespace: gw.Namespace, Name: ref.Name}
	if slices.ContainsFunc(s.in.ConfigMaps, func(o *corev1.ConfigMap) bool { return client.ObjectKeyFromObject(o) == key }) {
		return nil
	}
	cm, err := parametersConfigMap(ctx, r.Client, ref.Group, ref.Kind, key)
	if cm != nil {
		s.in.ConfigMaps = append(s.in.ConfigMaps, cm)
	}
	return err
}
