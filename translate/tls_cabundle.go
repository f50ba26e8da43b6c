package translate

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// caBundleKey is the key that holds a CA bundle in a ConfigMap or Secret,
// the one the spec names for both BackendTLSPolicy and frontend validation.
const caBundleKey = "ca.crt"

// caProblem says why a CA certificate reference cannot be used.
type caProblem int

const (
	caOK caProblem = iota
	// caBadKind: the reference names a kind gwsim cannot read CA bundles
	// from (anything but a core ConfigMap or Secret).
	caBadKind
	// caBadRef: the object does not exist, has no ca.crt, or its ca.crt
	// does not hold PEM certificates that parse.
	caBadRef
)

// resolveCABundle reads the CA bundle that a reference to group/kind
// ns/name names. A core ConfigMap is the spec's Core support; a core Secret
// (same key) is gwsim's implementation-specific extension. The bundle must
// hold at least one PEM CERTIFICATE block, and every such block must parse
// as an X.509 certificate. Permission (ReferenceGrant) is the caller's
// business: it differs between BackendTLSPolicy and frontend validation.
// A missing object that the open world assumes (for the reference at field
// of by) holds a valid bundle, and so does one whose values are encrypted
// (diag.Encrypted) if it has the key; the certificate count of either is
// unknown, so 0.
func (w *world) resolveCABundle(group, kind, ns, name string, by diag.ObjectRef, field string) (ir.CACertificate, caProblem, string) {
	full := ns + "/" + name
	var data []byte
	switch {
	case group == "" && kind == "ConfigMap":
		cm, ok := w.configMaps[keyOf(ns, name)]
		if !ok && w.assume(group, kind, ns, name, "a ConfigMap whose key ca.crt holds a valid CA bundle", by, field) {
			return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey}, caOK, ""
		}
		if !ok {
			return ir.CACertificate{}, caBadRef, fmt.Sprintf("ConfigMap %s does not exist", full)
		}
		if _, has := cm.Data[caBundleKey]; has && diag.Encrypted(cm.Annotations) {
			return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey}, caOK, ""
		}
		data = []byte(cm.Data[caBundleKey])
	case group == "" && kind == "Secret":
		s, ok := w.secrets[keyOf(ns, name)]
		if !ok && w.assume(group, kind, ns, name, "a Secret whose key ca.crt holds a valid CA bundle", by, field) {
			return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey}, caOK, ""
		}
		if !ok {
			return ir.CACertificate{}, caBadRef, fmt.Sprintf("Secret %s does not exist", full)
		}
		if _, has := s.Data[caBundleKey]; has && diag.Encrypted(s.Annotations) {
			return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey}, caOK, ""
		}
		data = s.Data[caBundleKey]
	default:
		return ir.CACertificate{}, caBadKind,
			fmt.Sprintf("%s %s is not a kind gwsim reads CA certificates from; use a core ConfigMap (or Secret) with key %s", qualifiedKind(group, kind), full, caBundleKey)
	}
	if len(data) == 0 {
		return ir.CACertificate{}, caBadRef, fmt.Sprintf("%s %s has no key %s", kind, full, caBundleKey)
	}
	n, err := countPEMCertificates(data)
	if err != nil {
		return ir.CACertificate{}, caBadRef, fmt.Sprintf("%s %s key %s: %v", kind, full, caBundleKey, err)
	}
	return ir.CACertificate{Kind: kind, Name: full, Key: caBundleKey, Certificates: n}, caOK, ""
}

// countPEMCertificates counts the certificates of a PEM bundle. Blocks of
// other types are skipped; a bundle with no certificate, or with one that
// does not parse, is an error.
func countPEMCertificates(data []byte) (int, error) {
	n := 0
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return 0, fmt.Errorf("certificate %d does not parse: %v", n+1, err)
		}
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("holds no PEM certificate")
	}
	return n, nil
}
