package controller

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// caRefs collects the objects that CA certificate references name, by
// kind. Only core ConfigMaps and Secrets hold CA bundles; references to
// anything else are left to Translate, which reports them.
type caRefs struct {
	configMaps, secrets []types.NamespacedName
}

func (c *caRefs) add(group, kind string, key types.NamespacedName) bool {
	if group != "" {
		return false
	}
	switch kind {
	case "ConfigMap":
		c.configMaps = append(c.configMaps, key)
	case "Secret":
		c.secrets = append(c.secrets, key)
	default:
		return false
	}
	return true
}

// gatherCACertificates gets the ConfigMaps and Secrets holding the CA
// bundles that the slice's BackendTLSPolicies (caCertificateRefs, local to
// each policy) and the Gateway's frontend validation (default and perPort)
// name, ConfigMaps first, each sorted. A frontend reference into another
// namespace adds that namespace's ReferenceGrants to the slice. Missing
// objects are left out (Translate reports them), and a Secret the slice
// already holds is not read again.
func (r *GatewayReconciler) gatherCACertificates(ctx context.Context, s *slice) error {
	var refs caRefs
	for _, p := range s.in.BackendTLSPolicies {
		for _, ref := range p.Spec.Validation.CACertificateRefs {
			refs.add(string(ref.Group), string(ref.Kind), types.NamespacedName{Namespace: p.Namespace, Name: string(ref.Name)})
		}
	}
	gw := s.in.Gateways[0]
	for _, v := range frontendValidations(gw) {
		for _, ref := range v.CACertificateRefs {
			key := types.NamespacedName{Namespace: gw.Namespace, Name: string(ref.Name)}
			if ref.Namespace != nil && *ref.Namespace != "" {
				key.Namespace = string(*ref.Namespace)
			}
			if refs.add(string(ref.Group), string(ref.Kind), key) && key.Namespace != gw.Namespace {
				s.grantNamespaces[key.Namespace] = true
			}
		}
	}
	for _, key := range sortedUniqueKeys(refs.configMaps) {
		cm := &corev1.ConfigMap{}
		if found, err := getIfExists(ctx, r.Client, key, cm); err != nil {
			return err
		} else if found {
			s.in.ConfigMaps = append(s.in.ConfigMaps, cm)
		}
	}
	for _, key := range sortedUniqueKeys(refs.secrets) {
		if slices.ContainsFunc(s.in.Secrets, func(o *corev1.Secret) bool { return client.ObjectKeyFromObject(o) == key }) {
			continue
		}
		secret := &corev1.Secret{}
		if found, err := getIfExists(ctx, r.Client, key, secret); err != nil {
			return err
		} else if found {
			s.in.Secrets = append(s.in.Secrets, secret)
		}
	}
	return nil
}

// frontendValidations lists the Gateway's frontend validations, the
// default first, then perPort in order.
func frontendValidations(gw *gwv1.Gateway) []*gwv1.FrontendTLSValidation {
	if gw.Spec.TLS == nil || gw.Spec.TLS.Frontend == nil {
		return nil
	}
	var out []*gwv1.FrontendTLSValidation
	if v := gw.Spec.TLS.Frontend.Default.Validation; v != nil {
		out = append(out, v)
	}
	for _, pp := range gw.Spec.TLS.Frontend.PerPort {
		if pp.TLS.Validation != nil {
			out = append(out, pp.TLS.Validation)
		}
	}
	return out
}

// getIfExists gets key into obj; found is false when it does not exist.
func getIfExists(ctx context.Context, c client.Client, key types.NamespacedName, obj client.Object) (bool, error) {
	if err := c.Get(ctx, key, obj, CachedRead); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, fmt.Errorf("getting %T %s: %w", obj, key, err)
	}
	return true, nil
}
