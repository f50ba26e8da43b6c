package conformance

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/url"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// issuingCA issues certificates for the handshake tests.
type issuingCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newIssuingCA(t *testing.T) issuingCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return issuingCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns a PEM certificate signed by the CA for the given names
// and usage.
func (ca issuingCA) issue(t *testing.T, usage x509.ExtKeyUsage, dns []string, uris ...string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "leaf"}, DNSNames: dns,
		ExtKeyUsage: []x509.ExtKeyUsage{usage}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	for _, u := range uris {
		parsed, _ := url.Parse(u)
		tmpl.URIs = append(tmpl.URIs, parsed)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestBackendHandshake checks the emulated gateway-to-backend handshake:
// the serving certificate (read through the Pod's Secret volume) must
// chain to the policy's CA bundle and carry its hostname or one of its
// subjectAltNames; only the Pod's HTTPS port speaks TLS; the Gateway's
// client certificate is presented, and verified when the Pod has client
// CAs.
func TestBackendHandshake(t *testing.T) {
	ca, other := newIssuingCA(t), newIssuingCA(t)
	serving := ca.issue(t, x509.ExtKeyUsageServerAuth, []string{"abc.example.com"}, "spiffe://abc.example.com/id")
	client := ca.issue(t, x509.ExtKeyUsageClientAuth, nil)
	foreignClient := other.issue(t, x509.ExtKeyUsageClientAuth, nil)
	dp := &dataPlane{
		secrets: map[string]*corev1.Secret{
			"ns/serving":        {Data: map[string][]byte{"tls.crt": serving, "tls.key": []byte("unused")}},
			"ns/client":         {Data: map[string][]byte{"tls.crt": client}},
			"ns/foreign-client": {Data: map[string][]byte{"tls.crt": foreignClient}},
		},
		configMaps: map[string]*corev1.ConfigMap{
			"ns/ca":    {Data: map[string]string{"ca.crt": string(ca.pem)}},
			"ns/other": {Data: map[string]string{"ca.crt": string(other.pem)}},
		},
	}
	pod := func(clientCAs bool) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "tls-backend"}}
		ctr := corev1.Container{
			Env:          []corev1.EnvVar{{Name: "TLS_SERVER_CERT", Value: "/etc/secret-volume/crt"}, {Name: "TLS_SERVER_PRIVKEY", Value: "/etc/secret-volume/key"}},
			VolumeMounts: []corev1.VolumeMount{{Name: "secret-volume", MountPath: "/etc/secret-volume"}},
		}
		p.Spec.Volumes = []corev1.Volume{{Name: "secret-volume", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName: "serving", Items: []corev1.KeyToPath{{Key: "tls.crt", Path: "crt"}, {Key: "tls.key", Path: "key"}}}}}}
		if clientCAs {
			ctr.Env = append(ctr.Env, corev1.EnvVar{Name: "TLS_CLIENT_CACERTS", Value: "/etc/configmap-volume/ca"})
			ctr.VolumeMounts = append(ctr.VolumeMounts, corev1.VolumeMount{Name: "configmap-volume", MountPath: "/etc/configmap-volume"})
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "configmap-volume", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "ca"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca"}}}}})
		}
		p.Spec.Containers = []corev1.Container{ctr}
		return p
	}
	caRef := func(name string) []ir.CACertificate {
		return []ir.CACertificate{{Kind: "ConfigMap", Name: "ns/" + name, Key: "ca.crt", Certificates: 1}}
	}
	tests := []struct {
		name      string
		port      int32
		clientCAs bool
		tls       ir.BackendTLS
		wantOK    bool
		wantPeers int
	}{
		{"hostname matches", 8443, false, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca")}, true, 0},
		{"hostname does not match", 8443, false, ir.BackendTLS{SNI: "mismatch.example.com", CACertificates: caRef("ca")}, false, 0},
		{"another CA", 8443, false, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("other")}, false, 0},
		{"not the HTTPS port", 3000, false, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca")}, false, 0},
		{"URI SAN replaces the hostname", 8443, false, ir.BackendTLS{SNI: "other.example.com", CACertificates: caRef("ca"),
			SubjectAltNames: []ir.SubjectAltName{{Type: "URI", Value: "spiffe://abc.example.com/id"}}}, true, 0},
		{"no SAN matches", 8443, false, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca"),
			SubjectAltNames: []ir.SubjectAltName{{Type: "Hostname", Value: "dce.example.com"}, {Type: "URI", Value: "spiffe://def.example.com/id"}}}, false, 0},
		{"client certificate presented", 8443, true, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca"), ClientCertificate: "ns/client"}, true, 1},
		{"client certificate of another CA", 8443, true, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca"), ClientCertificate: "ns/foreign-client"}, false, 0},
		{"no client certificate, client CAs set", 8443, true, ir.BackendTLS{SNI: "abc.example.com", CACertificates: caRef("ca")}, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			peers, err := dp.backendHandshake(pod(tc.clientCAs), tc.port, &tc.tls)
			if (err == nil) != tc.wantOK {
				t.Fatalf("handshake error = %v, want ok=%v", err, tc.wantOK)
			}
			if len(peers) != tc.wantPeers {
				t.Errorf("peer certificates = %d, want %d", len(peers), tc.wantPeers)
			}
			if tc.wantPeers > 0 && peers[0] != string(client) {
				t.Errorf("peer certificate %q, want the Secret's tls.crt as PEM", peers[0])
			}
		})
	}
}
