package egpolicy

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"time"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A ClientTrafficPolicy's client certificate validation, on a listener
// that terminates TLS, reads its CA bundles and CRLs from Secrets and
// ConfigMaps (EG's buildListenerTLSParameters,
// validateAndGetDataAtKeyInRef, validateCrl): a reference it cannot
// read, a verifying mode without any CA, and a CRL that does not parse,
// has expired or is not yet valid make EG refuse the policy. The CA
// bundles' certificates themselves are not parsed here.

// clientValidationProblem is the first such error, "" when none. now is
// the time CRLs are judged at; the zero time skips that judgement.
func (x *index) clientValidationProblem(p *Policy, cv *egv1a1.ClientValidationContext, now time.Time) string {
	if cv == nil || x.w.Refs == nil {
		return ""
	}
	for _, ref := range cv.CACertificateRefs {
		if _, err := x.dataAt(p, ref, "ca.crt"); err != "" {
			return "failed to get certificate from ref: " + err
		}
	}
	mode := egv1a1.ClientValidationRequireAndVerify
	if cv.Mode != nil {
		mode = *cv.Mode
	} else if cv.Optional {
		mode = egv1a1.ClientValidationVerifyIfGiven
	}
	if (mode == egv1a1.ClientValidationVerifyIfGiven || mode == egv1a1.ClientValidationRequireAndVerify) && len(cv.CACertificateRefs) == 0 {
		if cv.Mode == nil && cv.Optional {
			return fmt.Sprintf("tls.clientValidation.optional=true requires caCertificateRefs (maps to mode %q)", mode)
		}
		return fmt.Sprintf("tls.clientValidation.mode %q requires caCertificateRefs", mode)
	}
	if cv.Crl == nil {
		return ""
	}
	for _, ref := range cv.Crl.Refs {
		data, err := x.dataAt(p, ref, "ca.crl")
		if err != "" {
			return "failed to get crl from ref: " + err
		}
		if data == nil {
			continue // a ClusterTrustBundle, which gwsim does not read
		}
		if m := crlProblem(data, now); m != "" {
			return fmt.Sprintf("invalid crl in %s: %s", ref.Name, m)
		}
	}
	return ""
}

// crlProblem: Envoy takes a PEM CRL that parses and is current.
func crlProblem(data []byte, now time.Time) string {
	block, _ := pem.Decode(data)
	if block == nil {
		return "unable to decode pem data for CRL"
	}
	crl, err := x509.ParseRevocationList(block.Bytes)
	if err != nil {
		return fmt.Sprintf("failed to parse CRL: %v", err)
	}
	if now.IsZero() {
		return ""
	}
	if !crl.NextUpdate.IsZero() && now.After(crl.NextUpdate) {
		return fmt.Sprintf("CRL is expired (next update was due at %v)", crl.NextUpdate)
	}
	if now.Before(crl.ThisUpdate) {
		return fmt.Sprintf("CRL is not yet valid (this update starts at %v)", crl.ThisUpdate)
	}
	return ""
}

// dataAt reads the value at key of the Secret or ConfigMap a policy
// names (the only value when the key is absent and there is one), as EG
// does; data is nil, with no error, for a ClusterTrustBundle.
func (x *index) dataAt(p *Policy, ref gwv1.SecretObjectReference, key string) (data []byte, err string) {
	kind := "Secret"
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	if kind == "ClusterTrustBundle" {
		return nil, ""
	}
	if kind != "Secret" && kind != "ConfigMap" {
		return nil, "unsupported ref kind:" + kind
	}
	if ref.Group != nil && *ref.Group != "" {
		return nil, "secret ref group must be unspecified/empty"
	}
	k := types.NamespacedName{Namespace: p.Namespace, Name: string(ref.Name)}
	if ref.Namespace != nil && *ref.Namespace != "" {
		k.Namespace = string(*ref.Namespace)
	}
	if k.Namespace != p.Namespace && !x.grantsTo(p, k.Namespace, "", kind, k.Name) {
		return nil, fmt.Sprintf("ref to %s %s not permitted by any ReferenceGrant", kind, k)
	}
	var values map[string]string
	var ok bool
	if kind == "Secret" {
		values, ok = x.w.Refs.SecretData[k]
	} else {
		values, ok = x.w.Refs.ConfigMaps[k]
	}
	if !ok {
		return nil, fmt.Sprintf("%s %s does not exist", map[string]string{"Secret": "secret", "ConfigMap": "configmap"}[kind], k)
	}
	v, found := values[key]
	if !found && len(values) == 1 {
		for _, only := range values {
			v, found = only, true
		}
	}
	if !found || v == "" {
		return nil, fmt.Sprintf("ref %s [%s] has none of the expected keys [%s] and more than one entry",
			map[string]string{"Secret": "secret", "ConfigMap": "configmap"}[kind], ref.Name, key)
	}
	return []byte(v), ""
}
