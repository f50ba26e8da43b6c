package translate

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/util/validation"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// Envoy Gateway's Backend (envoy-gateway profile): a backendRef to a
// gateway.envoyproxy.io Backend becomes a cluster of the Backend's own
// endpoints (FQDN, IP; a Unix socket is refused in route backendRefs), as
// Envoy Gateway v1.9.1 translates it (internal/gatewayapi/route.go,
// processBackendDestinationSetting). The backendRef's port is not used:
// each endpoint carries its own. The Backend is checked as Envoy Gateway
// checks it before routing to it (internal/gatewayapi/backend.go and
// validate.go); the facts, not the code, are mirrored here, and each
// reason is the one Envoy Gateway puts in the route's ResolvedRefs.
//
// Envoy Gateway serves Backends only when its config enables them
// (extensionApis.enableBackend); the profile assumes it does, since an
// input that uses Backends is written for such a deployment.

// The reasons Envoy Gateway gives a route whose Backend it refuses
// (internal/gatewayapi/status/error.go).
const (
	egReasonInvalidBackendRef      = "InvalidBackendRef"
	egReasonInvalidAddress         = "InvalidAddress"
	egReasonUnsupportedAddressType = "UnsupportedAddressType"
)

// egBackendKind is how clusters (ir.Cluster.Kind) and messages name the
// Backend kind.
var egBackendKind = qualifiedKind(profile.BackendKind.Group, profile.BackendKind.Kind)

// routeProfile is the profile that decides for route r: the one forced by
// Options.Implementation, else that of the GatewayClass of the first
// parent Gateway of gwsim's it names. A route whose parents are elsewhere
// gets the generic profile.
func (w *world) routeProfile(r routeInfo) profile.Profile {
	if n := w.opts.Implementation; n != "" && n != profile.Auto {
		return profile.Of(n)
	}
	for _, p := range r.parentRefs {
		if string(deref(p.Group)) != gwv1.GroupName || string(deref(p.Kind)) != "Gateway" {
			continue
		}
		ns := r.meta.Namespace
		if p.Namespace != nil {
			ns = string(*p.Namespace)
		}
		if g, ok := w.gateways[keyOf(ns, string(p.Name))]; ok {
			if c, ok := w.ourClass(g); ok {
				return ProfileOf(w.opts, c)
			}
		}
	}
	return profile.Of(profile.Generic)
}

// simulatedBackend reports whether a backendRef to group/kind names an
// Envoy Gateway Backend that profile p (the route's) simulates.
func simulatedBackend(p profile.Profile, group, kind string) bool {
	return group == profile.BackendKind.Group && kind == profile.BackendKind.Kind && p.Simulates(profile.BackendKind)
}

// resolveEGBackend resolves a backendRef to the Backend ns/name.
func (w *world) resolveEGBackend(r routeInfo, ref gwv1.BackendRef, ns, field string, weight int32) backendResult {
	name := string(ref.Name)
	invalid := func(reason, msg string) backendResult {
		return backendResult{
			backend: ir.WeightedBackend{Weight: weight, Invalid: reason, Ref: backendRefName(profile.BackendKind.Group, profile.BackendKind.Kind, ns+"/"+name, ref.Port)},
			reason:  reason,
			message: fmt.Sprintf("%s: %s", field, msg),
		}
	}
	full := fmt.Sprintf("Backend %s/%s", ns, name)
	if !w.allowedByGrant(grantRef{Group: gwv1.GroupName, Kind: string(r.kind), Namespace: r.meta.Namespace},
		grantRef{Group: profile.BackendKind.Group, Kind: profile.BackendKind.Kind, Namespace: ns, Name: name}) {
		return invalid(string(gwv1.RouteReasonRefNotPermitted),
			fmt.Sprintf("%s is in another namespace and no ReferenceGrant in %s allows %s from %s", full, ns, r.kind, r.meta.Namespace))
	}
	be, ok := w.egBackends[keyOf(ns, name)]
	if !ok {
		return invalid(string(gwv1.RouteReasonBackendNotFound), full+" not found")
	}
	if reason, msg := egBackendInvalid(be, w.in.BackendTLSPolicies); reason != "" {
		return invalid(reason, full+": "+msg)
	}
	if reason, msg := egBackendRefUnsupported(be); reason != "" {
		return invalid(reason, full+": "+msg)
	}
	c := egBackendCluster(be, ref.Port)
	if c.TLS == nil {
		c.TLS = w.backendTLS.byTarget[backendTLSTarget{backend: egBackendKey(ns, name)}]
	}
	return backendResult{backend: ir.WeightedBackend{Cluster: c.Name, Weight: weight}, cluster: c}
}

// egBackendInvalid says why Envoy Gateway does not accept a Backend (its
// Accepted=False message, and the reason a route referencing it gets), or
// "" when it does.
func egBackendInvalid(be *egv1a1.Backend, policies []*gwv1.BackendTLSPolicy) (reason, msg string) {
	if be.Spec.Type != nil && *be.Spec.Type == egv1a1.BackendTypeDynamicResolver && len(be.Spec.Endpoints) > 0 {
		return egReasonInvalidBackendRef, "DynamicResolver type cannot have endpoints specified"
	}
	if tls := be.Spec.TLS; tls != nil && !deref(tls.InsecureSkipVerify) &&
		tls.WellKnownCACertificates == nil && len(tls.CACertificateRefs) == 0 && !egPoliciesGiveCA(be, policies) {
		return egReasonInvalidBackendRef, "must specify either CACertificateRefs or WellKnownCACertificates when InsecureSkipVerify is unset or false"
	}
	if tls := be.Spec.TLS; tls != nil && tls.BackendTLSConfig != nil && tls.ClientCertificateRef != nil {
		if ns := string(deref(tls.ClientCertificateRef.Namespace)); ns != "" && ns != be.Namespace {
			return egReasonInvalidBackendRef, fmt.Sprintf("clientCertificateRef Secret is not located in the same namespace as Backend. Secret namespace: %s does not match Backend namespace: %s", ns, be.Namespace)
		}
	}
	for _, ep := range be.Spec.Endpoints {
		if ep.Hostname != nil {
			if msg := egHostnameInvalid(*ep.Hostname, "hostname"); msg != "" {
				return egReasonInvalidAddress, msg
			}
		}
		switch {
		case ep.FQDN != nil:
			if msg := egHostnameInvalid(ep.FQDN.Hostname, "FQDN"); msg != "" {
				return egReasonInvalidAddress, msg
			}
		case ep.IP != nil:
			ip, err := netip.ParseAddr(ep.IP.Address)
			if err != nil {
				return egReasonInvalidAddress, fmt.Sprintf("IP address %s is invalid", ep.IP.Address)
			}
			// Envoy Gateway allows loopback only on its Host
			// infrastructure (a developer's machine), which gwsim does
			// not assume.
			if ip.IsLoopback() {
				return egReasonInvalidAddress, fmt.Sprintf("IP address %s in the loopback range is only supported when using the Host infrastructure", ep.IP.Address)
			}
		}
	}
	return "", ""
}

// egHostnameInvalid checks an endpoint hostname as Envoy Gateway does
// outside its Host infrastructure: a DNS subdomain of at least two labels
// that is not an IP address.
func egHostnameInvalid(hostname, what string) string {
	trimmed := strings.TrimSuffix(hostname, ".")
	switch {
	case len(validation.IsDNS1123Subdomain(trimmed)) > 0:
		return fmt.Sprintf("hostname %s is not a valid %s", hostname, what)
	case len(strings.Split(hostname, ".")) < 2:
		return fmt.Sprintf("hostname %s should be a domain with at least two segments separated by dots", hostname)
	}
	if _, err := netip.ParseAddr(hostname); err == nil {
		return fmt.Sprintf("hostname %s is an IP address", hostname)
	}
	return ""
}

// egPoliciesGiveCA reports whether BackendTLSPolicies targeting the
// Backend give it the CA its own TLS settings lack: one targeting the
// whole Backend with a CA, or ones with a CA naming every endpoint port
// by sectionName (Envoy Gateway names Backend ports by number).
func egPoliciesGiveCA(be *egv1a1.Backend, policies []*gwv1.BackendTLSPolicy) bool {
	ports := map[string]bool{}
	for _, ep := range be.Spec.Endpoints {
		switch {
		case ep.FQDN != nil:
			ports[fmt.Sprint(ep.FQDN.Port)] = false
		case ep.IP != nil:
			ports[fmt.Sprint(ep.IP.Port)] = false
		}
	}
	for _, p := range policies {
		if p.Namespace != be.Namespace {
			continue
		}
		hasCA := p.Spec.Validation.WellKnownCACertificates != nil || len(p.Spec.Validation.CACertificateRefs) > 0
		for _, t := range p.Spec.TargetRefs {
			if string(t.Group) != profile.BackendKind.Group || string(t.Kind) != profile.BackendKind.Kind || string(t.Name) != be.Name {
				continue
			}
			if t.SectionName == nil {
				if hasCA {
					return true
				}
				continue
			}
			if _, ok := ports[string(*t.SectionName)]; ok && hasCA {
				ports[string(*t.SectionName)] = true
			}
		}
	}
	if len(ports) == 0 {
		return false
	}
	for _, covered := range ports {
		if !covered {
			return false
		}
	}
	return true
}

// egBackendRefUnsupported says why a route cannot reference a Backend that
// is itself valid: Unix sockets are refused in route backendRefs, and so
// is a Backend mixing FQDN endpoints with IP or Unix ones.
func egBackendRefUnsupported(be *egv1a1.Backend) (reason, msg string) {
	var fqdn, other int
	for _, ep := range be.Spec.Endpoints {
		switch {
		case ep.Unix != nil:
			return egReasonUnsupportedAddressType, "unix domain sockets are not supported in backend references"
		case ep.FQDN != nil:
			fqdn++
		default:
			other++
		}
	}
	if fqdn > 0 && other > 0 {
		return egReasonUnsupportedAddressType, "mixed FQDN and IP or Unix address type for the same backendRef is not supported"
	}
	return "", ""
}

// egBackendCluster is the cluster of a Backend: its FQDN and IP endpoints
// with their ports, sorted, and its first appProtocol.
func egBackendCluster(be *egv1a1.Backend, port *gwv1.PortNumber) *ir.Cluster {
	c := &ir.Cluster{Kind: egBackendKind, Service: be.Namespace + "/" + be.Name}
	c.Name = c.Kind + "/" + c.Service
	if port != nil {
		c.Port = int32(*port)
		c.Name += fmt.Sprintf(":%d", c.Port)
	}
	if len(be.Spec.AppProtocols) > 0 {
		c.Protocol = string(be.Spec.AppProtocols[0])
	}
	for _, ep := range be.Spec.Endpoints {
		switch {
		case ep.FQDN != nil:
			c.Endpoints = append(c.Endpoints, ir.Endpoint{Address: ep.FQDN.Hostname, Port: ep.FQDN.Port})
		case ep.IP != nil:
			c.Endpoints = append(c.Endpoints, ir.Endpoint{Address: ep.IP.Address, Port: ep.IP.Port})
		}
	}
	slices.SortFunc(c.Endpoints, func(a, b ir.Endpoint) int {
		return cmp.Or(cmp.Compare(a.Address, b.Address), cmp.Compare(a.Port, b.Port))
	})
	c.Endpoints = slices.Compact(c.Endpoints)
	c.TLS = egBackendTLS(be)
	return c
}

// egBackendTLS is the TLS a Backend's own spec.tls asks for: verified
// against its CAs (or the system store), or not verified at all.
func egBackendTLS(be *egv1a1.Backend) *ir.BackendTLS {
	tls := be.Spec.TLS
	if tls == nil {
		return nil
	}
	out := &ir.BackendTLS{Policy: "Backend " + be.Namespace + "/" + be.Name}
	if tls.SNI != nil {
		out.SNI = string(*tls.SNI)
	}
	if tls.WellKnownCACertificates != nil {
		out.WellKnownCACertificates = string(*tls.WellKnownCACertificates)
	}
	for _, ref := range tls.CACertificateRefs {
		out.CACertificates = append(out.CACertificates, ir.CACertificate{Kind: string(ref.Kind), Name: be.Namespace + "/" + string(ref.Name)})
	}
	if deref(tls.InsecureSkipVerify) {
		out.Options = map[string]string{"insecureSkipVerify": "true"}
	}
	return out
}

// egBackendKey is the key BackendTLSPolicy targets of a Backend go by.
func egBackendKey(ns, name string) backendKey {
	return backendKey{Kind: egBackendKind, NamespacedName: keyOf(ns, name)}
}

// policyTargetsBackend reports whether a BackendTLSPolicy targetRef names
// an Envoy Gateway Backend while some profile in use simulates Backends
// (Envoy Gateway lets BackendTLSPolicy target them).
func (w *world) policyTargetsBackend(t gwv1.LocalPolicyTargetReferenceWithSectionName) bool {
	return string(t.Group) == profile.BackendKind.Group && string(t.Kind) == profile.BackendKind.Kind && w.anyProfileSimulates(profile.BackendKind)
}

// egBackendPolicyTarget resolves a BackendTLSPolicy targetRef to a
// Backend: the Backend must exist, and a sectionName names one of its
// endpoint ports by number, as Envoy Gateway reads it.
func (w *world) egBackendPolicyTarget(ns string, t gwv1.LocalPolicyTargetReferenceWithSectionName, field string,
	fail func(field, reason, msg string) (policyTarget, *diag.Finding)) (policyTarget, *diag.Finding) {
	key := egBackendKey(ns, string(t.Name))
	be, ok := w.egBackends[key.NamespacedName]
	if !ok {
		return fail(field, string(gwv1.PolicyReasonTargetNotFound), fmt.Sprintf("%s does not exist", key))
	}
	pt := policyTarget{target: backendTLSTarget{backend: key}}
	if t.SectionName == nil {
		return pt, nil
	}
	pt.target.section = string(*t.SectionName)
	for _, ep := range be.Spec.Endpoints {
		switch {
		case ep.FQDN != nil && fmt.Sprint(ep.FQDN.Port) == pt.target.section,
			ep.IP != nil && fmt.Sprint(ep.IP.Port) == pt.target.section:
			return pt, nil
		}
	}
	return fail(field+".sectionName", string(gwv1.PolicyReasonTargetNotFound), fmt.Sprintf("%s has no endpoint port %s", key, pt.target.section))
}

// egClusterTarget finds the Backend a cluster was built for and the
// sectionNames that select it (its endpoint ports, by number), for
// BackendTLSPolicy ancestors.
func (w *world) egClusterTarget(c ir.Cluster) (backendKey, []string, bool) {
	if c.Kind != egBackendKind {
		return backendKey{}, nil, false
	}
	ns, name, _ := strings.Cut(c.Service, "/")
	be, ok := w.egBackends[keyOf(ns, name)]
	if !ok {
		return backendKey{}, nil, false
	}
	var sections []string
	for _, ep := range c.Endpoints {
		sections = append(sections, fmt.Sprint(ep.Port))
	}
	return egBackendKey(be.Namespace, be.Name), sections, true
}
