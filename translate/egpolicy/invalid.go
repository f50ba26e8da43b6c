package egpolicy

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// specProblems returns the errors Envoy Gateway's translator finds in a
// policy's spec. A policy with one is
// Accepted=False, Invalid, at every target it resolves (EG's
// Set*TranslationError*). gwsim checks the values EG cannot translate
// (trafficvalues.go, clientvalues.go) and the references a policy makes
// to objects of the input: the Services of extAuth and extProc (they
// exist, have the TCP port, are not ExternalName, and a ReferenceGrant
// allows one in another namespace), and the Secrets and ConfigMaps of
// OIDC, basic auth, a JWT's local JWKS, Wasm pull secrets, Lua and
// response overrides. A ClientTrafficPolicy's errors depend on the
// listener too (clientlistener.go).
func (x *index) specProblems(p *Policy) []string {
	var errs []string
	if o, ok := p.Object.(*egv1a1.BackendTrafficPolicy); ok {
		errs = trafficProblems(&o.Spec)
	}
	if x.w.Refs != nil {
		errs = append(errs, x.refProblems(p)...)
	}
	return errs
}

// refProblems are the errors in the objects a policy's spec names.
func (x *index) refProblems(p *Policy) []string {
	var errs []string
	switch o := p.Object.(type) {
	case *egv1a1.SecurityPolicy:
		if a := o.Spec.ExtAuth; a != nil {
			if a.GRPC != nil {
				errs = append(errs, x.clusterProblems("ExtAuth", p, a.GRPC.BackendCluster)...)
			}
			if a.HTTP != nil {
				errs = append(errs, x.clusterProblems("ExtAuth", p, a.HTTP.BackendCluster)...)
			}
		}
		if k := o.Spec.APIKeyAuth; k != nil {
			errs = append(errs, x.apiKeyProblems(p, k)...)
		}
		if b := o.Spec.BasicAuth; b != nil {
			errs = append(errs, x.secretProblems("BasicAuth", p, b.Users)...)
		}
		if oidc := o.Spec.OIDC; oidc != nil {
			errs = append(errs, x.secretProblems("OIDC", p, oidc.ClientSecret)...)
		}
		if jwt := o.Spec.JWT; jwt != nil {
			for _, pr := range jwt.Providers {
				l := pr.LocalJWKS
				if l == nil || l.Type == nil || *l.Type != egv1a1.LocalJWKSTypeValueRef || l.ValueRef == nil {
					continue
				}
				key := types.NamespacedName{Namespace: p.Namespace, Name: string(l.ValueRef.Name)}
				cm, ok := x.w.Refs.ConfigMaps[key]
				switch {
				case !ok:
					errs = append(errs, fmt.Sprintf("JWT: local JWKS ConfigMap %s not found", key))
				case len(cm) == 0:
					errs = append(errs, fmt.Sprintf("JWT: JWKS data not found in ConfigMap %s", key))
				}
			}
		}
	case *egv1a1.EnvoyExtensionPolicy:
		for _, e := range o.Spec.ExtProc {
			errs = append(errs, x.clusterProblems("ExtProc", p, e.BackendCluster)...)
		}
		for _, w := range o.Spec.Wasm {
			if w.Code.Image != nil && w.Code.Image.PullSecretRef != nil {
				errs = append(errs, x.secretProblems("Wasm", p, *w.Code.Image.PullSecretRef)...)
			}
		}
		for _, l := range o.Spec.Lua {
			if l.ValueRef != nil && string(l.ValueRef.Kind) == "ConfigMap" {
				key := types.NamespacedName{Namespace: p.Namespace, Name: string(l.ValueRef.Name)}
				cm, ok := x.w.Refs.ConfigMaps[key]
				switch {
				case !ok:
					errs = append(errs, fmt.Sprintf("Lua: can't find the referenced configmap %s in namespace %s", key.Name, key.Namespace))
				case cm["lua"] == "":
					errs = append(errs, fmt.Sprintf("Lua: can't find the key lua in the referenced configmap %s", key.Name))
				}
			}
		}
	case *egv1a1.BackendTrafficPolicy:
		for _, ro := range o.Spec.ResponseOverride {
			if ro.Response == nil || ro.Response.Body == nil || ro.Response.Body.ValueRef == nil {
				continue
			}
			key := types.NamespacedName{Namespace: p.Namespace, Name: string(ro.Response.Body.ValueRef.Name)}
			cm, ok := x.w.Refs.ConfigMaps[key]
			switch {
			case !ok:
				errs = append(errs, fmt.Sprintf("ResponseOverride: can't find the referenced configmap %s", key))
			case cm["response.body"] == "":
				errs = append(errs, fmt.Sprintf("ResponseOverride: can't find the key response.body in the referenced configmap %s", key))
			}
		}
	}
	return errs
}

// finish words errors as EG's status does (errors.Join, then
// status.Error2ConditionMsg): one per line, the first letter upper case,
// a period at the end.
func finish(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	msg := strings.Join(errs, "\n")
	if r := []rune(msg); unicode.IsLetter(r[0]) {
		msg = string(unicode.ToUpper(r[0])) + string(r[1:])
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// clusterProblems checks the Service backends of a BackendCluster.
func (x *index) clusterProblems(what string, p *Policy, c egv1a1.BackendCluster) []string {
	refs := []gwv1.BackendObjectReference{}
	if c.BackendRef != nil {
		refs = append(refs, *c.BackendRef)
	}
	for _, r := range c.BackendRefs {
		refs = append(refs, r.BackendObjectReference)
	}
	var out []string
	for _, r := range refs {
		if r.Group != nil && *r.Group != "" || r.Kind != nil && *r.Kind != "Service" {
			continue // a Backend or ServiceImport: not checked
		}
		key := types.NamespacedName{Namespace: p.Namespace, Name: string(r.Name)}
		if r.Namespace != nil && *r.Namespace != "" {
			key.Namespace = string(*r.Namespace)
		}
		if key.Namespace != p.Namespace && !x.grantsTo(p, key.Namespace, "", "Service", key.Name) {
			out = append(out, fmt.Sprintf("%s: backend ref to Service %s not permitted by any ReferenceGrant", what, key))
			continue
		}
		svc, ok := x.w.Refs.Services[key]
		if !ok {
			out = append(out, fmt.Sprintf("%s: service %s not found", what, key))
			continue
		}
		if r.Port != nil && !slices.ContainsFunc(svc.Spec.Ports, func(sp corev1.ServicePort) bool {
			return sp.Port == *r.Port && (sp.Protocol == "" || sp.Protocol == corev1.ProtocolTCP)
		}) {
			out = append(out, fmt.Sprintf("%s: TCP Port %d not found on service %s", what, *r.Port, key))
			continue
		}
		// An ExternalName Service has no endpoints for Envoy to reach.
		if svc.Spec.Type == corev1.ServiceTypeExternalName {
			out = append(out, fmt.Sprintf("%s: Service %s is of type ExternalName, which is not supported as a backend; "+
				"use an Envoy Gateway Backend resource with an FQDN endpoint instead", what, key))
		}
	}
	return out
}

// secretProblems checks a Secret reference.
func (x *index) secretProblems(what string, p *Policy, r gwv1.SecretObjectReference) []string {
	if r.Group != nil && *r.Group != "" || r.Kind != nil && *r.Kind != "Secret" {
		return nil
	}
	key := types.NamespacedName{Namespace: p.Namespace, Name: string(r.Name)}
	if r.Namespace != nil && *r.Namespace != "" {
		key.Namespace = string(*r.Namespace)
	}
	if key.Namespace != p.Namespace && !x.grantsTo(p, key.Namespace, "", "Secret", key.Name) {
		return []string{fmt.Sprintf("%s: ref to Secret %s not permitted by any ReferenceGrant", what, key)}
	}
	if !x.w.Refs.Secrets[key] {
		return []string{fmt.Sprintf("%s: secret %s does not exist", what, key)}
	}
	return nil
}

// grantsTo reports whether a ReferenceGrant in ns lets the policy refer to
// the object.
func (x *index) grantsTo(p *Policy, ns, group, kind, name string) bool {
	for _, g := range x.w.Grants {
		if g.Namespace != ns {
			continue
		}
		from := slices.ContainsFunc(g.Spec.From, func(f gwv1.ReferenceGrantFrom) bool {
			return string(f.Group) == Group && string(f.Kind) == string(p.Kind) && string(f.Namespace) == p.Namespace
		})
		to := slices.ContainsFunc(g.Spec.To, func(t gwv1.ReferenceGrantTo) bool {
			return string(t.Group) == group && string(t.Kind) == kind && (t.Name == nil || *t.Name == "" || string(*t.Name) == name)
		})
		if from && to {
			return true
		}
	}
	return false
}

// apiKeyProblems checks an API key authentication's Secrets, and that no
// key serves two clients (Envoy's filter maps each key to one client; a
// client named in two Secrets keeps the first).
func (x *index) apiKeyProblems(p *Policy, k *egv1a1.APIKeyAuth) []string {
	clients, keys := map[string]bool{}, map[string]bool{}
	for _, ref := range k.CredentialRefs {
		if e := x.secretProblems("APIKeyAuth", p, ref); len(e) > 0 {
			return e
		}
		if ref.Group != nil && *ref.Group != "" || ref.Kind != nil && *ref.Kind != "Secret" {
			continue
		}
		key := types.NamespacedName{Namespace: p.Namespace, Name: string(ref.Name)}
		if ref.Namespace != nil && *ref.Namespace != "" {
			key.Namespace = string(*ref.Namespace)
		}
		data := x.w.Refs.SecretData[key]
		ids := make([]string, 0, len(data))
		for id := range data {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if clients[id] {
				continue
			}
			if keys[data[id]] {
				return []string{"APIKeyAuth: duplicated API key"}
			}
			clients[id], keys[data[id]] = true, true
		}
	}
	return nil
}
