package translate

import (
	"crypto/tls"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// resolveCertificates checks the TLS settings of an HTTPS or TLS listener:
// Terminate mode needs at least one certificateRef, each a Secret of type
// kubernetes.io/tls whose tls.crt and tls.key form a key pair, in the
// namespace of the listener's owner (Gateway or ListenerSet) or allowed by a
// ReferenceGrant to that owner's kind: a grant to Gateways does not extend
// to ListenerSets, nor the reverse (GEP-1713).
func (w *world) resolveCertificates(r *listenerResult) {
	l := r.spec
	if l.Protocol != gwv1.HTTPSProtocolType && l.Protocol != gwv1.TLSProtocolType {
		return
	}
	// The CRD defaults tls.mode to Terminate; the loader applies it.
	if l.TLS != nil && deref(l.TLS.Mode) == gwv1.TLSModePassthrough {
		if l.Protocol == gwv1.HTTPSProtocolType {
			r.problems.acceptedReason = string(gwv1.ListenerReasonUnsupportedValue)
			r.problems.acceptedMsg = "an HTTPS listener terminates TLS; use protocol TLS for Passthrough"
		}
		return
	}
	if l.TLS == nil || len(l.TLS.CertificateRefs) == 0 {
		r.problems.refsReason = string(gwv1.ListenerReasonInvalidCertificateRef)
		r.problems.refsMsg = fmt.Sprintf("a %s listener in Terminate mode needs tls.certificateRefs", l.Protocol)
		return
	}
	for i, ref := range l.TLS.CertificateRefs {
		key, reason, msg := w.resolveCertificate(r.owner, ref, fmt.Sprintf("spec.listeners[%s].tls.certificateRefs[%d]", r.spec.Name, i))
		if reason != "" {
			r.problems.refsReason = reason
			r.problems.refsMsg = fmt.Sprintf("tls.certificateRefs[%d]: %s", i, msg)
			return
		}
		r.certs = append(r.certs, key)
		r.certNames = append(r.certNames, w.certificateNames(key)...)
	}
}

// resolveCertificate resolves one certificate reference made at field of
// owner. A missing Secret that the open world assumes holds a certificate
// valid for every hostname it is used for.
func (w *world) resolveCertificate(owner listenerOwner, ref gwv1.SecretObjectReference, field string) (key, reason, msg string) {
	// The CRD defaults group and kind to a core Secret's; the loader
	// applies it.
	group, kind := string(deref(ref.Group)), string(deref(ref.Kind))
	ns := owner.namespace
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	name := ns + "/" + string(ref.Name)
	invalid := string(gwv1.ListenerReasonInvalidCertificateRef)
	if group != "" || kind != "Secret" {
		return "", invalid, fmt.Sprintf("%s/%s %s is not a supported kind; use a core Secret", group, kind, name)
	}
	if !w.allowedByGrant(grantRef{Group: gwv1.GroupName, Kind: owner.kind, Namespace: owner.namespace},
		grantRef{Group: "", Kind: "Secret", Namespace: ns, Name: string(ref.Name)}) {
		return "", string(gwv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("Secret %s is in another namespace and no ReferenceGrant there allows %ss from %s", name, owner.kind, owner.namespace)
	}
	s, ok := w.secrets[keyOf(ns, string(ref.Name))]
	if !ok && w.assume("", "Secret", ns, string(ref.Name), "a kubernetes.io/tls Secret with a certificate valid for the hostnames it serves",
		diag.ObjectRef{Kind: owner.kind, Namespace: owner.namespace, Name: owner.name}, field) {
		return name, "", ""
	}
	if !ok {
		return "", invalid, fmt.Sprintf("Secret %s does not exist", name)
	}
	if s.Type != corev1.SecretTypeTLS {
		return "", invalid, fmt.Sprintf("Secret %s has type %q, want %q", name, s.Type, corev1.SecretTypeTLS)
	}
	if diag.Encrypted(s.Annotations) {
		// Its keys are known, its values are not (see diag.Encrypted).
		_, hasCrt := s.Data[corev1.TLSCertKey]
		_, hasKey := s.Data[corev1.TLSPrivateKeyKey]
		if !hasCrt || !hasKey {
			return "", invalid, fmt.Sprintf("Secret %s must hold both %s and %s", name, corev1.TLSCertKey, corev1.TLSPrivateKeyKey)
		}
		return name, "", ""
	}
	crt, keyPEM := s.Data[corev1.TLSCertKey], s.Data[corev1.TLSPrivateKeyKey]
	if len(crt) == 0 || len(keyPEM) == 0 {
		return "", invalid, fmt.Sprintf("Secret %s must hold both %s and %s", name, corev1.TLSCertKey, corev1.TLSPrivateKeyKey)
	}
	if _, err := tls.X509KeyPair(crt, keyPEM); err != nil {
		return "", invalid, fmt.Sprintf("Secret %s does not hold a valid key pair: %v", name, err)
	}
	return name, "", ""
}
