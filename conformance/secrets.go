package conformance

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// suiteSecret is one serving-certificate Secret that the suite creates in
// code (utils/suite/suite.go, Setup) rather than in base/manifests.yaml.
type suiteSecret struct {
	namespace, name string
	hosts           []string
}

// suiteSecrets lists them with the hosts their certificates name. Client
// certificates and the CA ConfigMaps are left out: no Gateway listener
// refers to them.
func suiteSecrets() []suiteSecret {
	return []suiteSecret{
		{"gateway-conformance-web-backend", "certificate", []string{"*"}},
		{"gateway-conformance-infra", "tls-validity-checks-certificate", []string{"*", "*.org", "*.wildcard.org"}},
		{"gateway-conformance-infra", "tls-checks-certificate", []string{"abc.example.com", "other.example.com"}},
		{"gateway-conformance-infra", "tls-passthrough-checks-certificate", []string{"abc.example.com"}},
		{"gateway-conformance-app-backend", "tls-passthrough-checks-certificate", []string{"abc.example.com"}},
		{"gateway-conformance-infra", "tls-terminate-checks-certificate", []string{"tls.example.com"}},
	}
}

// SuiteSecrets returns the kubernetes.io/tls Secrets the suite creates
// before any test. The suite signs some of them with a test CA; here each
// is self-signed, which is all a Gateway listener's certificateRef needs
// (a key pair that matches). Keys are fresh on every call.
func SuiteSecrets() ([]*corev1.Secret, error) {
	var out []*corev1.Secret
	for _, s := range suiteSecrets() {
		crt, key, err := selfSigned(s.hosts)
		if err != nil {
			return nil, fmt.Errorf("secret %s/%s: %w", s.namespace, s.name, err)
		}
		sec := &corev1.Secret{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: s.name},
			Type:       corev1.SecretTypeTLS,
			Data:       map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: key},
		}
		out = append(out, sec)
	}
	return out, nil
}

// selfSigned returns a PEM certificate for hosts and its PEM private key.
func selfSigned(hosts []string) (crt, key []byte, err error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: hosts[0], Organization: []string{"gwsim conformance"}},
		DNSNames:     hosts,
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		return nil, nil, err
	}
	pk, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		return nil, nil, err
	}
	crt = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	key = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: pk})
	return crt, key, nil
}
