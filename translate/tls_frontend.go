package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// frontendValidationFor returns the client certificate validation that
// Gateway spec.tls.frontend sets for listeners on port, and its field path:
// the perPort entry for the port overrides the default. It is nil when
// the Gateway sets none.
func frontendValidationFor(g *gwv1.Gateway, port gwv1.PortNumber) (*gwv1.FrontendTLSValidation, string) {
	if g.Spec.TLS == nil || g.Spec.TLS.Frontend == nil {
		return nil, ""
	}
	f := g.Spec.TLS.Frontend
	for i, pp := range f.PerPort {
		if pp.Port == port {
			return pp.TLS.Validation, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i)
		}
	}
	return f.Default.Validation, "spec.tls.frontend.default.validation"
}

// resolveFrontendValidation applies the Gateway's frontend validation to
// an HTTPS listener (the spec scopes it to "Listeners handling HTTPS
// traffic"; TLS listeners are left alone). Each CA reference is checked in
// the spec's order: a kind other than a core ConfigMap or Secret is
// InvalidCACertificateKind; a reference into another namespace needs a
// ReferenceGrant there (RefNotPermitted); a missing or malformed bundle is
// InvalidCACertificateRef. Any invalid reference makes ResolvedRefs False
// with the first one's reason; when none is valid the listener is not
// Accepted either (NoValidCACertificate), so it serves nothing.
func (w *world) resolveFrontendValidation(g *gwv1.Gateway, r *listenerResult) {
	if r.spec.Protocol != gwv1.HTTPSProtocolType {
		return
	}
	v, field := frontendValidationFor(g, r.spec.Port)
	if v == nil {
		return
	}
	// The CRD defaults mode to AllowValidOnly; the loader applies it.
	fv := &ir.FrontendValidation{Mode: string(v.Mode), CACertificates: []ir.CACertificate{}}
	var reason, msg string
	for i, ref := range v.CACertificateRefs {
		ca, refReason, refMsg := w.resolveFrontendCA(g, ref, fmt.Sprintf("%s.caCertificateRefs[%d]", field, i))
		if refReason == "" {
			fv.CACertificates = append(fv.CACertificates, ca)
			continue
		}
		if reason == "" {
			reason, msg = refReason, fmt.Sprintf("%s.caCertificateRefs[%d]: %s", field, i, refMsg)
		}
	}
	if reason != "" && r.problems.refsReason == "" {
		r.problems.refsReason, r.problems.refsMsg = reason, msg
	}
	if len(fv.CACertificates) == 0 {
		if r.problems.acceptedReason == "" {
			r.problems.acceptedReason = string(gwv1.ListenerReasonNoValidCACertificate)
			r.problems.acceptedMsg = "no CA certificate reference is valid, so no client certificate can be verified; " + msg
		}
		return
	}
	r.frontend = fv
}

// resolveFrontendCA checks one frontend CA reference and returns its
// bundle, or the listener ResolvedRefs reason that it is invalid.
func (w *world) resolveFrontendCA(g *gwv1.Gateway, ref gwv1.ObjectReference, field string) (ir.CACertificate, string, string) {
	group, kind := string(ref.Group), string(ref.Kind)
	ns := g.Namespace
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	if group == "" && (kind == "ConfigMap" || kind == "Secret") &&
		!w.allowedByGrant(grantRef{Group: gwv1.GroupName, Kind: "Gateway", Namespace: g.Namespace},
			grantRef{Group: "", Kind: kind, Namespace: ns, Name: string(ref.Name)}) {
		return ir.CACertificate{}, string(gwv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("%s %s/%s is in another namespace and no ReferenceGrant there allows Gateways from %s", kind, ns, ref.Name, g.Namespace)
	}
	ca, problem, msg := w.resolveCABundle(group, kind, ns, string(ref.Name), diag.ObjectRef{Kind: "Gateway", Namespace: g.Namespace, Name: g.Name}, field)
	switch problem {
	case caBadKind:
		return ca, string(gwv1.ListenerReasonInvalidCACertificateKind), msg
	case caBadRef:
		return ca, string(gwv1.ListenerReasonInvalidCACertificateRef), msg
	}
	return ca, "", ""
}

// insecureFrontendConditions returns the Gateway condition the spec sets
// while any frontend validation (default or perPort) is
// AllowInsecureFallback: InsecureFrontendValidationMode True,
// ConfigurationChanged. It is absent otherwise.
func insecureFrontendConditions(g *gwv1.Gateway) []condition {
	for _, f := range insecureFrontendFields(g) {
		return []condition{trueCond(string(gwv1.GatewayConditionInsecureFrontendValidationMode), string(gwv1.GatewayReasonConfigurationChanged),
			f+" is AllowInsecureFallback: clients without a valid certificate are accepted")}
	}
	return nil
}

// insecureFrontendFields lists the validations set to AllowInsecureFallback.
func insecureFrontendFields(g *gwv1.Gateway) []string {
	if g.Spec.TLS == nil || g.Spec.TLS.Frontend == nil {
		return nil
	}
	f := g.Spec.TLS.Frontend
	var out []string
	if v := f.Default.Validation; v != nil && v.Mode == gwv1.AllowInsecureFallback {
		out = append(out, "spec.tls.frontend.default.validation.mode")
	}
	for i, pp := range f.PerPort {
		if v := pp.TLS.Validation; v != nil && v.Mode == gwv1.AllowInsecureFallback {
			out = append(out, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation.mode", i))
		}
	}
	return out
}

// gatewayTLSFindings explains the parts of spec.tls that status does not
// show: an insecure fallback and a perPort entry that no HTTPS listener
// uses. (spec.tls.backend shows in the ResolvedRefs condition.)
func gatewayTLSFindings(g *gwv1.Gateway, finding func(diag.Severity, string, string, string) diag.Finding) []diag.Finding {
	if g.Spec.TLS == nil {
		return nil
	}
	var out []diag.Finding
	for _, f := range insecureFrontendFields(g) {
		out = append(out, finding(diag.Warning, f, string(gwv1.GatewayReasonConfigurationChanged),
			"AllowInsecureFallback accepts clients without a valid certificate; the backend must authorize them"))
	}
	if fe := g.Spec.TLS.Frontend; fe != nil {
		for i, pp := range fe.PerPort {
			if !hasHTTPSListener(g, pp.Port) {
				out = append(out, finding(diag.Info, fmt.Sprintf("spec.tls.frontend.perPort[%d]", i), diag.ReasonNoEffect,
					fmt.Sprintf("no HTTPS listener uses port %d, so this entry has no effect", pp.Port)))
			}
		}
	}
	return out
}

func hasHTTPSListener(g *gwv1.Gateway, port gwv1.PortNumber) bool {
	for _, l := range g.Spec.Listeners {
		if l.Port == port && l.Protocol == gwv1.HTTPSProtocolType {
			return true
		}
	}
	return false
}
