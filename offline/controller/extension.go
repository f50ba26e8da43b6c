package controller

import (
	"context"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// addOther adds to the slice the object of a kind gwsim does not decode
// that a backendRef from namespace ns names, when the input holds it
// (Env.OtherObjects): Translate resolves such a vendor backend only if
// its slice holds the object. A reference to anything else is left to
// Translate, which reports or assumes it.
func (s *slice) addOther(e Env, ns string, ref gwv1.BackendObjectReference) {
	id := translate.OtherObject{Group: string(deref(ref.Group)), Kind: string(deref(ref.Kind)), Name: string(ref.Name), Namespace: ns}
	if ref.Namespace != nil && *ref.Namespace != "" {
		id.Namespace = string(*ref.Namespace)
	}
	s.addOtherObject(e, id)
}

func (s *slice) addOtherObject(e Env, id translate.OtherObject) {
	if slices.Contains(e.OtherObjects, id) && !slices.Contains(s.in.OtherObjects, id) {
		s.in.OtherObjects = append(s.in.OtherObjects, id)
	}
}

// gatherExtensionFilters adds the objects that the listed routes'
// ExtensionRef filters name (local to the route) when the input holds
// them.
func (s *slice) gatherExtensionFilters(e Env) {
	for _, rt := range s.routes {
		for _, f := range extensionRefs(rt.obj) {
			s.addOtherObject(e, translate.OtherObject{Group: string(f.Group), Kind: string(f.Kind), Namespace: rt.obj.GetNamespace(), Name: string(f.Name)})
		}
	}
}

// extensionRefs returns the ExtensionRef filters of an HTTPRoute or a
// GRPCRoute, at rule and backendRef level; other kinds have none.
func extensionRefs(o any) []gwv1.LocalObjectReference {
	var out []gwv1.LocalObjectReference
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		ref := func(f gwv1.HTTPRouteFilter) *gwv1.LocalObjectReference { return f.ExtensionRef }
		for _, rule := range r.Spec.Rules {
			out = appendExtensionRefs(out, rule.Filters, ref)
			for _, b := range rule.BackendRefs {
				out = appendExtensionRefs(out, b.Filters, ref)
			}
		}
	case *gwv1.GRPCRoute:
		ref := func(f gwv1.GRPCRouteFilter) *gwv1.LocalObjectReference { return f.ExtensionRef }
		for _, rule := range r.Spec.Rules {
			out = appendExtensionRefs(out, rule.Filters, ref)
			for _, b := range rule.BackendRefs {
				out = appendExtensionRefs(out, b.Filters, ref)
			}
		}
	}
	return out
}

// appendExtensionRefs appends the ExtensionRefs of a filter list of either
// route kind's filter type.
func appendExtensionRefs[F any](out []gwv1.LocalObjectReference, filters []F, ref func(F) *gwv1.LocalObjectReference) []gwv1.LocalObjectReference {
	for _, f := range filters {
		if r := ref(f); r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// gatherRouteFilters gets the Envoy Gateway HTTPRouteFilters that the
// listed routes' ExtensionRef filters name, the ConfigMaps their direct
// responses take a body from, and the Secrets their credential injections
// read: Translate applies such a filter
// where the route's profile simulates the kind. Missing ones are left
// out; Translate then treats the reference as any extension reference.
func (r *GatewayReconciler) gatherRouteFilters(ctx context.Context, s *slice) error {
	var keys []types.NamespacedName
	for _, rt := range s.routes {
		for _, f := range extensionRefs(rt.obj) {
			if string(f.Group) == profile.HTTPRouteFilterKind.Group && string(f.Kind) == profile.HTTPRouteFilterKind.Kind {
				keys = append(keys, types.NamespacedName{Namespace: rt.obj.GetNamespace(), Name: string(f.Name)})
			}
		}
	}
	var bodies, credentials []types.NamespacedName
	for _, key := range sortedUniqueKeys(keys) {
		hrf := &egv1a1.HTTPRouteFilter{}
		found, err := getIfExists(ctx, r.Client, key, hrf)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		s.in.HTTPRouteFilters = append(s.in.HTTPRouteFilters, hrf)
		if dr := hrf.Spec.DirectResponse; dr != nil && dr.Body != nil && dr.Body.ValueRef != nil {
			bodies = append(bodies, types.NamespacedName{Namespace: key.Namespace, Name: string(dr.Body.ValueRef.Name)})
		}
		if ci := hrf.Spec.CredentialInjection; ci != nil {
			ref := types.NamespacedName{Namespace: key.Namespace, Name: string(ci.Credential.ValueRef.Name)}
			if ns := ci.Credential.ValueRef.Namespace; ns != nil && *ns != "" && string(*ns) != key.Namespace {
				ref.Namespace = string(*ns)
				s.grantNamespaces[ref.Namespace] = true
			}
			credentials = append(credentials, ref)
		}
	}
	// Translate refuses a rule whose credential Secret is missing, as
	// Envoy Gateway does.
	if err := r.addSecrets(ctx, s, credentials); err != nil {
		return err
	}
	for _, key := range sortedUniqueKeys(bodies) {
		if slices.ContainsFunc(s.in.ConfigMaps, func(c *corev1.ConfigMap) bool { return c.Namespace == key.Namespace && c.Name == key.Name }) {
			continue
		}
		cm := &corev1.ConfigMap{}
		found, err := getIfExists(ctx, r.Client, key, cm)
		if err != nil {
			return err
		}
		if found {
			s.in.ConfigMaps = append(s.in.ConfigMaps, cm)
		}
	}
	return nil
}
