package translate

import (
	"crypto/x509"
	"encoding/pem"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// certificateNames returns the DNS names the leaf certificate of the
// Secret key ("namespace/name") covers: its subjectAltName DNS entries,
// which are what clients check (RFC 6125 leaves the common name out when
// SANs are present, and browsers ignore it altogether). A Secret that is
// assumed, not read, or whose first PEM block does not parse covers no
// name gwsim can know, so it takes part in no certificate overlap.
func (w *world) certificateNames(key string) []string {
	ns, name, _ := strings.Cut(key, "/")
	s, ok := w.secrets[keyOf(ns, name)]
	if !ok {
		return nil
	}
	block, _ := pem.Decode(s.Data[corev1.TLSCertKey])
	if block == nil || block.Type != "CERTIFICATE" {
		return nil
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil
	}
	return cert.DNSNames
}
