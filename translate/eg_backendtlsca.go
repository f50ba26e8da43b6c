package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// clusterTrustBundleKind is the kind (certificates.k8s.io) Envoy Gateway
// also reads CA bundles from; gwsim does not load such objects.
const clusterTrustBundleKind = "ClusterTrustBundle"

// envoyCARefs reports whether BackendTLSPolicies' CA references are read
// as Envoy Gateway reads them. The policies are resolved once for the
// whole input (their clusters are shared by every Gateway), so this holds
// only when the profile forced, or that of every GatewayClass of gwsim's
// in the input, makes that choice: an input that mixes profiles keeps the
// generic reading, which the spec describes.
func (w *world) envoyCARefs() bool {
	if n := w.opts.Implementation; n != "" && n != profile.Auto {
		return profile.Of(n).Status.EnvoyBackendTLSPolicies
	}
	ours := false
	for _, c := range w.in.GatewayClasses {
		if !w.isOurs(c) {
			continue
		}
		if !ProfileOf(w.opts, c).Status.EnvoyBackendTLSPolicies {
			return false
		}
		ours = true
	}
	return ours
}

// envoyPolicyCAs reads the caCertificateRefs of pr's policy as Envoy
// Gateway's translator does (internal/gatewayapi/backendtlspolicy.go
// getCaCertsFromCARefs): a reference is read by its kind alone. A
// ConfigMap or Secret must exist and hold the bundle under ca.crt, else
// tls.crt, else as its only key (helpers.go getFirstMatchOrFirstFromData;
// the PEM is not parsed); a ClusterTrustBundle is a CA source gwsim
// cannot read, taken as holding a bundle and said to be not simulated;
// other kinds are passed over. The first reference that cannot be read
// refuses the whole policy (Accepted=False NoValidCACertificate,
// ResolvedRefs=False InvalidCACertificateRef), and so does a list with no
// reference of a kind read (ResolvedRefs InvalidKind), so that the
// connections to its targets fail.
func (w *world) envoyPolicyCAs(pr *policyResult, finding func(diag.Severity, string, string, string) diag.Finding) {
	p, tls := pr.policy, pr.tls
	by := diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: p.Namespace, Name: p.Name}
	refuse := func(field, reason, msg string) {
		tls.CACertificates = nil
		pr.refs = falseCond(string(gwv1.BackendTLSPolicyConditionResolvedRefs), reason, field+": "+msg)
		pr.findings = append(pr.findings, finding(diag.Warning, field, reason, msg))
		tls.Invalid = string(gwv1.BackendTLSPolicyReasonNoValidCACertificate)
		pr.markInvalid(finding, field, tls.Invalid, "no CA certificate can be read ("+msg+")")
	}
	read := false
	var unloadable []string
	for i, ref := range p.Spec.Validation.CACertificateRefs {
		field := fmt.Sprintf("spec.validation.caCertificateRefs[%d]", i)
		switch kind := string(ref.Kind); kind {
		case "ConfigMap", "Secret":
			read = true
			ca, msg := w.envoyCABundle(kind, p.Namespace, string(ref.Name), by, field)
			if msg != "" {
				refuse(field, string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef), msg)
				return
			}
			tls.CACertificates = append(tls.CACertificates, ca)
			if ca.Certificates == 0 && w.caObjectExists(kind, p.Namespace, string(ref.Name)) {
				unloadable = append(unloadable, fmt.Sprintf("%s %s/%s key %s holds no PEM certificate that parses", kind, p.Namespace, ref.Name, ca.Key))
			}
		case clusterTrustBundleKind:
			read = true
			tls.CACertificates = append(tls.CACertificates, ir.CACertificate{Kind: kind, Name: string(ref.Name)})
			pr.notes = append(pr.notes, finding(diag.Info, field, diag.ReasonNotSupportedYet, fmt.Sprintf(
				"gwsim does not read ClusterTrustBundles: it takes %s as holding a CA bundle, as Envoy Gateway reads one; if it does not exist, Envoy Gateway refuses the policy", ref.Name)))
		}
	}
	if !read {
		refuse("spec.validation.caCertificateRefs", string(gwv1.BackendTLSPolicyReasonInvalidKind),
			"no reference is a ConfigMap, Secret or ClusterTrustBundle, the kinds Envoy Gateway reads CA certificates from")
		return
	}
	if len(unloadable) > 0 {
		tls.Unloadable = strings.Join(unloadable, "; ")
		pr.notes = append(pr.notes, finding(diag.Error, "spec.validation.caCertificateRefs", string(gwv1.BackendTLSPolicyReasonInvalidCACertificateRef),
			"Envoy Gateway accepts this policy, since it does not parse CA bundles, but "+tls.Unloadable+
				", which Envoy cannot load: connections to the targeted backends fail and requests get a 5xx"))
	}
}

// caObjectExists reports whether the input holds ConfigMap or Secret
// ns/name (not one the open world assumes).
func (w *world) caObjectExists(kind, ns, name string) bool {
	if kind == "ConfigMap" {
		_, ok := w.configMaps[keyOf(ns, name)]
		return ok
	}
	_, ok := w.secrets[keyOf(ns, name)]
	return ok
}
