package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// envoyFrontendValidation applies the Gateway's frontend validation to an
// HTTPS listener as Envoy Gateway does: the perPort entry of the
// listener's port, else the default; an entry without validation
// validates nothing. A validation whose CA references do not resolve
// (envoyFrontendCAs) leaves the listener with ResolvedRefs and Programmed
// False for that reason, and Accepted False with NoValidCACertificate.
func (w *world) envoyFrontendValidation(g *gwv1.Gateway, r *listenerResult) {
	if r.spec.Protocol != gwv1.HTTPSProtocolType {
		return
	}
	v, field := frontendValidationFor(g, r.spec.Port)
	if v == nil {
		return
	}
	cas, reason, msg := w.envoyFrontendCAs(g, v, field)
	if reason != "" {
		r.problems.frontendReason, r.problems.frontendMsg = reason, msg
		return
	}
	r.frontend = &ir.FrontendValidation{Mode: string(v.Mode), CACertificates: cas}
}

// envoyFrontendCAs resolves the CA references of one frontend validation
// as Envoy Gateway does, in order, stopping at the first that fails: a
// ConfigMap or Secret in another namespace needs a ReferenceGrant
// (RefNotPermitted); it must exist and hold the bundle under ca.crt, else
// tls.crt, else as its only key (InvalidCACertificateRef). Envoy Gateway
// takes the bundle as text, unparsed. References of other kinds are passed
// over; when none is of a kind it reads, the reason is
// InvalidCACertificateKind.
func (w *world) envoyFrontendCAs(g *gwv1.Gateway, v *gwv1.FrontendTLSValidation, field string) ([]ir.CACertificate, string, string) {
	cas := []ir.CACertificate{}
	for i, ref := range v.CACertificateRefs {
		group, kind := string(ref.Group), string(ref.Kind)
		if group != "" || (kind != "ConfigMap" && kind != "Secret") {
			continue
		}
		at := fmt.Sprintf("%s.caCertificateRefs[%d]", field, i)
		ns := g.Namespace
		if ref.Namespace != nil && *ref.Namespace != "" {
			ns = string(*ref.Namespace)
		}
		if !w.allowedByGrant(grantRef{Group: gwv1.GroupName, Kind: "Gateway", Namespace: g.Namespace},
			grantRef{Group: "", Kind: kind, Namespace: ns, Name: string(ref.Name)}) {
			return nil, string(gwv1.ListenerReasonRefNotPermitted), fmt.Sprintf("%s: %s %s/%s is in another namespace and no ReferenceGrant there allows Gateways from %s",
				at, kind, ns, ref.Name, g.Namespace)
		}
		ca, msg := w.envoyCABundle(kind, ns, string(ref.Name), diag.ObjectRef{Kind: "Gateway", Namespace: g.Namespace, Name: g.Name}, at)
		if msg != "" {
			return nil, string(gwv1.ListenerReasonInvalidCACertificateRef), at + ": " + msg
		}
		cas = append(cas, ca)
	}
	if len(cas) == 0 {
		return nil, string(gwv1.ListenerReasonInvalidCACertificateKind), field + ".caCertificateRefs: no reference is a core ConfigMap or Secret, the kinds read for CA certificates"
	}
	return cas, "", ""
}

// envoyCABundle reads a CA bundle from ConfigMap or Secret ns/name as
// Envoy Gateway does: under ca.crt, else tls.crt, else the one key the
// object holds. It says why when there is none. A missing object that the
// open world assumes holds a bundle.
func (w *world) envoyCABundle(kind, ns, name string, by diag.ObjectRef, field string) (ir.CACertificate, string) {
	full := ns + "/" + name
	var data map[string][]byte
	switch kind {
	case "ConfigMap":
		cm, ok := w.configMaps[keyOf(ns, name)]
		if !ok {
			break
		}
		data = make(map[string][]byte, len(cm.Data))
		for k, v := range cm.Data {
			data[k] = []byte(v)
		}
	case "Secret":
		if s, ok := w.secrets[keyOf(ns, name)]; ok {
			data = s.Data
			if data == nil {
				data = map[string][]byte{}
			}
		}
	}
	if data == nil {
		if w.assume("", kind, ns, name, "a "+kind+" whose key ca.crt holds a CA bundle", by, field) {
			return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey}, ""
		}
		return ir.CACertificate{}, fmt.Sprintf("%s %s does not exist", kind, full)
	}
	key := ""
	for _, k := range []string{caBundleKey, "tls.crt"} {
		if _, ok := data[k]; ok {
			key = k
			break
		}
	}
	if key == "" && len(data) == 1 {
		for k := range data {
			key = k
		}
	}
	if key == "" {
		return ir.CACertificate{}, fmt.Sprintf("%s %s has no key %s or tls.crt, and more than one key", kind, full, caBundleKey)
	}
	n, _ := countPEMCertificates(data[key]) // Envoy Gateway does not parse the bundle; 0 when it does not parse
	return ir.CACertificate{Kind: kind, Name: full, Key: key, Certificates: n}, ""
}

// envoyGatewayFrontend says why some frontend validation of g, the
// default or a perPort entry, does not resolve as Envoy Gateway reads it,
// whether or not a listener uses it: Envoy Gateway then makes the
// Gateway's ResolvedRefs False (InvalidParameters). It is "" when every
// one resolves.
func (w *world) envoyGatewayFrontend(g *gwv1.Gateway) string {
	if g.Spec.TLS == nil || g.Spec.TLS.Frontend == nil {
		return ""
	}
	f := g.Spec.TLS.Frontend
	if v := f.Default.Validation; v != nil {
		if _, reason, msg := w.envoyFrontendCAs(g, v, "spec.tls.frontend.default.validation"); reason != "" {
			return msg
		}
	}
	for i, pp := range f.PerPort {
		if v := pp.TLS.Validation; v != nil {
			if _, reason, msg := w.envoyFrontendCAs(g, v, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i)); reason != "" {
				return msg
			}
		}
	}
	return ""
}
