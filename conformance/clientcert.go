package conformance

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// clientCertificate plays the client's side of a TLS handshake with the
// listener that the evaluator says takes c's SNI, when that listener asks
// for a client certificate (the Gateway's spec.tls.frontend), naming its
// CAs, as Envoy does with a validation context; nil when it does not ask.
// The server certificate is not checked (see RoundTripper).
//   - the client answers through Request.GetClientCertificateHook; a
//     client without one sends no certificate, as crypto/tls does;
//   - crypto/x509 verifies the certificate against the listener's CA
//     bundles (for client authentication), and the client must hold its
//     private key (the CertificateVerify message proves it).
//
// What the gateway does with the verdict (AllowValidOnly refuses,
// AllowInsecureFallback accepts) is the evaluator's decision. An error is
// a hook that fails or a CA bundle that cannot be read.
func (dp *dataPlane) clientCertificate(c *call) (*evaluate.ClientCertificate, error) {
	conn := evaluate.EvaluateConnection(dp.model, evaluate.Connection{Gateway: c.gateway, Port: c.port, Protocol: "TLS", SNI: c.sni})
	v := conn.ClientValidation
	if v == nil {
		return nil, nil
	}
	roots, subjects, err := dp.caPool(v.CACertificates)
	if err != nil {
		return nil, fmt.Errorf("gwsim: listener %s: %w", conn.Listener, err)
	}
	var cert *tls.Certificate
	if hook := c.req.GetClientCertificateHook; hook != nil {
		cert, err = hook(&tls.CertificateRequestInfo{AcceptableCAs: subjects, Version: tls.VersionTLS13})
		if err != nil {
			return nil, err
		}
	}
	alert, why := verifyClientCertificate(cert, roots)
	return &evaluate.ClientCertificate{Verified: alert == "", Alert: alert, Why: why}, nil
}

// verifyClientCertificate checks cert as a server that requires a client
// certificate does. It returns the TLS alert the server sends and why, or
// "" when the certificate is good.
func verifyClientCertificate(cert *tls.Certificate, roots *x509.CertPool) (alert, why string) {
	if cert == nil || len(cert.Certificate) == 0 {
		return "certificate required", "the client sent no certificate"
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return "bad certificate", err.Error()
	}
	intermediates := x509.NewCertPool()
	for _, der := range cert.Certificate[1:] {
		if ic, err := x509.ParseCertificate(der); err == nil {
			intermediates.AddCert(ic)
		}
	}
	opts := x509.VerifyOptions{Roots: roots, Intermediates: intermediates, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if _, err := leaf.Verify(opts); err != nil {
		var unknown x509.UnknownAuthorityError
		var invalid x509.CertificateInvalidError
		switch {
		case errors.As(err, &unknown):
			return "unknown certificate authority", err.Error()
		case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
			return "expired certificate", err.Error()
		}
		return "bad certificate", err.Error()
	}
	signer, ok := cert.PrivateKey.(crypto.Signer)
	pub, okPub := leaf.PublicKey.(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !okPub || !pub.Equal(signer.Public()) {
		return "decrypt error", "the client does not hold the certificate's private key"
	}
	return "", ""
}

// caPool loads the CA bundles the IR names (the key of a ConfigMap or
// Secret, PEM certificates) into a pool, with the subjects a server lists
// in its CertificateRequest.
func (dp *dataPlane) caPool(bundles []ir.CACertificate) (*x509.CertPool, [][]byte, error) {
	pool := x509.NewCertPool()
	var subjects [][]byte
	for _, b := range bundles {
		var data []byte
		switch b.Kind {
		case "ConfigMap":
			if cm := dp.configMaps[b.Name]; cm != nil {
				data = []byte(cm.Data[b.Key])
			}
		case "Secret":
			if s := dp.secrets[b.Name]; s != nil {
				data = s.Data[b.Key]
			}
		}
		n := 0
		for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
			ca, err := x509.ParseCertificate(block.Bytes)
			if block.Type != "CERTIFICATE" || err != nil {
				continue
			}
			pool.AddCert(ca)
			subjects = append(subjects, ca.RawSubject)
			n++
		}
		if n == 0 {
			return nil, nil, fmt.Errorf("CA bundle %s %s key %s holds no certificate", b.Kind, b.Name, b.Key)
		}
	}
	return pool, subjects, nil
}
