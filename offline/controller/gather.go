package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// attachedRoute is a route listed for a Gateway, with the kind that reads it.
type attachedRoute struct {
	kind RouteKind
	obj  client.Object
}

// slice is the part of the world one Gateway depends on.
type slice struct {
	in     translate.Input
	routes []attachedRoute
	// grantNamespaces are the namespaces that cross-namespace references
	// point into; only ReferenceGrants there can allow them.
	grantNamespaces map[string]bool
	// ancestorPolicies are the BackendTLSPolicies outside in whose status
	// names the Gateway (see gatherAncestorPolicies).
	ancestorPolicies []*gwv1.BackendTLSPolicy
}

// gather reads, through the client only, everything Translate needs to
// compute the status of gw and of the routes attached to it.
func (r *GatewayReconciler) gather(ctx context.Context, gw *gwv1.Gateway, class *gwv1.GatewayClass) (*slice, error) {
	s := &slice{grantNamespaces: map[string]bool{}}
	s.in.GatewayClasses = []*gwv1.GatewayClass{class}
	s.in.Gateways = []*gwv1.Gateway{gw}
	gwKey := client.ObjectKeyFromObject(gw).String()
	sets, err := ListObjects(ctx, r.Client, &gwv1.ListenerSetList{}, matching(FieldParentGateway, gwKey), CachedRead)
	if err != nil {
		return nil, fmt.Errorf("listing ListenerSets of Gateway %s: %w", gwKey, err)
	}
	for _, o := range sets {
		s.in.ListenerSets = append(s.in.ListenerSets, o.(*gwv1.ListenerSet))
	}
	if err := r.gatherRoutes(ctx, s, gwKey); err != nil {
		return nil, err
	}
	if err := r.gatherMergedPeers(ctx, s); err != nil {
		return nil, err
	}
	ns, err := ListObjects(ctx, r.Client, &corev1.NamespaceList{}, CachedRead)
	if err != nil {
		return nil, fmt.Errorf("listing Namespaces: %w", err)
	}
	for _, o := range ns {
		s.in.Namespaces = append(s.in.Namespaces, o.(*corev1.Namespace))
	}
	if err := r.gatherSecrets(ctx, s); err != nil {
		return nil, err
	}
	// The parameters come before the backends: an EnvoyProxy's telemetry
	// names backends too.
	if err := r.gatherParameters(ctx, s); err != nil {
		return nil, err
	}
	if err := r.gatherBackends(ctx, s); err != nil {
		return nil, err
	}
	s.gatherExtensionFilters(r.Env)
	if err := r.gatherCACertificates(ctx, s); err != nil {
		return nil, err
	}
	if err := r.gatherRouteFilters(ctx, s); err != nil {
		return nil, err
	}
	for _, n := range sortedKeys(s.grantNamespaces) {
		grants, err := ListObjects(ctx, r.Client, &gwv1.ReferenceGrantList{}, client.InNamespace(n), CachedRead)
		if err != nil {
			return nil, fmt.Errorf("listing ReferenceGrants in %s: %w", n, err)
		}
		for _, o := range grants {
			s.in.ReferenceGrants = append(s.in.ReferenceGrants, o.(*gwv1.ReferenceGrant))
		}
	}
	if err := r.gatherAncestorPolicies(ctx, s, gwKey); err != nil {
		return nil, err
	}
	return s, nil
}

// gatherRoutes lists, per route kind, the routes attached to the Gateway
// and to each of its ListenerSets. A route attached to both is kept once.
func (r *GatewayReconciler) gatherRoutes(ctx context.Context, s *slice, gwKey string) error {
	for _, k := range RouteKinds() {
		selectors := []client.MatchingFieldsSelector{matching(FieldParentGateway, gwKey)}
		for _, ls := range s.in.ListenerSets {
			selectors = append(selectors, matching(FieldParentListenerSet, client.ObjectKeyFromObject(ls).String()))
		}
		// One List cannot hold a route twice: routes are only seen twice
		// when the Gateway has ListenerSets.
		var seen map[types.NamespacedName]bool
		if len(selectors) > 1 {
			seen = map[types.NamespacedName]bool{}
		}
		for _, sel := range selectors {
			objs, err := ListObjects(ctx, r.Client, k.NewList(), sel, CachedRead)
			if err != nil {
				return fmt.Errorf("listing %ss by %v: %w", k.Kind, sel, err)
			}
			for _, o := range objs {
				if seen != nil {
					key := client.ObjectKeyFromObject(o)
					if seen[key] {
						continue
					}
					seen[key] = true
				}
				k.AddTo(&s.in, o)
				s.routes = append(s.routes, attachedRoute{kind: k, obj: o})
			}
		}
	}
	return nil
}

// gatherSecrets gets the Secrets that listeners (of the Gateway and of its
// ListenerSets) and the Gateway's backend client certificate name. Missing
// Secrets are left out: Translate reports them.
func (r *GatewayReconciler) gatherSecrets(ctx context.Context, s *slice) error {
	var keys []types.NamespacedName
	add := func(fromNS string, ref gwv1.SecretObjectReference) {
		if deref(ref.Group) != "" || deref(ref.Kind) != "Secret" { // defaulted by the CRD
			return
		}
		key := types.NamespacedName{Namespace: fromNS, Name: string(ref.Name)}
		if ref.Namespace != nil && *ref.Namespace != "" {
			key.Namespace = string(*ref.Namespace)
		}
		if key.Namespace != fromNS {
			s.grantNamespaces[key.Namespace] = true
		}
		keys = append(keys, key)
	}
	// The Gateways of a merged data plane: the Gateway's, then its peers'.
	for _, gw := range s.in.Gateways {
		for _, l := range gw.Spec.Listeners {
			if l.TLS != nil {
				for _, ref := range l.TLS.CertificateRefs {
					add(gw.Namespace, ref)
				}
			}
		}
	}
	if gw := s.in.Gateways[0]; gw.Spec.TLS != nil && gw.Spec.TLS.Backend != nil && gw.Spec.TLS.Backend.ClientCertificateRef != nil {
		add(gw.Namespace, *gw.Spec.TLS.Backend.ClientCertificateRef)
	}
	for _, ls := range s.in.ListenerSets {
		for _, l := range ls.Spec.Listeners {
			if l.TLS != nil {
				for _, ref := range l.TLS.CertificateRefs {
					add(ls.Namespace, ref)
				}
			}
		}
	}
	return r.addSecrets(ctx, s, keys)
}

// addSecrets adds to the slice the Secrets keys name that it does not hold
// yet; missing ones are left out, for Translate to report.
func (r *GatewayReconciler) addSecrets(ctx context.Context, s *slice, keys []types.NamespacedName) error {
	for _, key := range sortedUniqueKeys(keys) {
		if slices.ContainsFunc(s.in.Secrets, func(o *corev1.Secret) bool { return o.Namespace == key.Namespace && o.Name == key.Name }) {
			continue
		}
		secret := &corev1.Secret{}
		found, err := getIfExists(ctx, r.Client, key, secret)
		if err != nil {
			return err
		}
		if found {
			s.in.Secrets = append(s.in.Secrets, secret)
		}
	}
	return nil
}

// matching selects the objects whose values for the index over field
// hold value, as client.MatchingFields{field: value} does without
// building a map and a selector from it on every List.
func matching(field, value string) client.MatchingFieldsSelector {
	return client.MatchingFieldsSelector{Selector: fields.OneTermEqualSelector(field, value)}
}

func sortedUniqueKeys(keys []types.NamespacedName) []types.NamespacedName {
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return slices.Compact(keys)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
