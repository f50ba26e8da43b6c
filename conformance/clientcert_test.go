package conformance

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/url"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"
)

// clientCA issues client certificates (with their keys) for one test.
type clientCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newClientCA(t *testing.T, name string) clientCA {
	t.Helper()
	key := mustKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return clientCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// client issues a client certificate with the given extended key usage.
func (ca clientCA) client(t *testing.T, usage x509.ExtKeyUsage) *tls.Certificate {
	t.Helper()
	key := mustKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestVerifyClientCertificate(t *testing.T) {
	ca, other := newClientCA(t, "ca"), newClientCA(t, "other")
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	good := ca.client(t, x509.ExtKeyUsageClientAuth)
	stolen := *good
	stolen.PrivateKey = mustKey(t)
	tests := []struct {
		name  string
		cert  *tls.Certificate
		alert string
	}{
		{"issued by the CA for client auth", good, ""},
		{"no certificate", nil, "certificate required"},
		{"an empty certificate message", &tls.Certificate{}, "certificate required"},
		{"issued by another CA", other.client(t, x509.ExtKeyUsageClientAuth), "unknown certificate authority"},
		{"issued by the CA for server auth only", ca.client(t, x509.ExtKeyUsageServerAuth), "bad certificate"},
		{"the client lacks the private key", &stolen, "decrypt error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alert, why := verifyClientCertificate(tt.cert, roots)
			if alert != tt.alert {
				t.Errorf("alert = %q (%s), want %q", alert, why, tt.alert)
			}
		})
	}
}

// TestRoundTripperClientCertificates runs the handshake against a Gateway
// whose listeners on 443 validate client certificates in each mode.
func TestRoundTripperClientCertificates(t *testing.T) {
	ca, other := newClientCA(t, "ca"), newClientCA(t, "other")
	good, bad := ca.client(t, x509.ExtKeyUsageClientAuth), other.client(t, x509.ExtKeyUsageClientAuth)
	tests := []struct {
		mode    gwv1.FrontendValidationModeType
		name    string
		cert    *tls.Certificate
		wantErr string
	}{
		{gwv1.AllowValidOnly, "issued by the CA", good, ""},
		{gwv1.AllowValidOnly, "issued by another CA", bad, "unknown certificate authority"},
		{gwv1.AllowValidOnly, "none", nil, "certificate required"},
		{gwv1.AllowInsecureFallback, "issued by the CA", good, ""},
		{gwv1.AllowInsecureFallback, "issued by another CA", bad, ""},
		{gwv1.AllowInsecureFallback, "none", nil, ""},
	}
	for _, mode := range []gwv1.FrontendValidationModeType{gwv1.AllowValidOnly, gwv1.AllowInsecureFallback} {
		objs := clientCertObjects(t, ca, mode)
		served := servedCertificate(t, objs)
		cluster, err := NewCluster(DefaultControllerName, objs...)
		if err != nil {
			t.Fatal(err)
		}
		addr := gatewayAddr(t, cluster, types.NamespacedName{Namespace: rtNS, Name: "gw"})
		rt := &RoundTripper{Network: NewNetwork(cluster)}
		for _, tt := range tests {
			if tt.mode != mode {
				continue
			}
			t.Run(string(mode)+"/"+tt.name, func(t *testing.T) {
				asked := false
				req := roundtripper.Request{URL: url.URL{Scheme: "https", Host: addr, Path: "/echo"}, Host: "first.example",
					Protocol: roundtripper.HTTPSProtocol, ServerName: "first.example", ServerCertificate: served}
				if tt.cert != nil {
					req.GetClientCertificateHook = func(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
						asked = true
						return tt.cert, nil
					}
				}
				creq, cres, err := rt.CaptureRoundTrip(req)
				checkRoundTrip(t, rtWant{errText: tt.wantErr, status: 200}, creq, cres, err)
				if tt.cert != nil && !asked {
					t.Error("the gateway did not ask for a client certificate")
				}
			})
		}
	}
}

// clientCertObjects is the round-trip world with the Gateway validating
// client certificates against ca, in mode.
func clientCertObjects(t *testing.T, ca clientCA, mode gwv1.FrontendValidationModeType) []client.Object {
	t.Helper()
	objs := roundTripObjects(t)
	for _, o := range objs {
		if gw, ok := o.(*gwv1.Gateway); ok {
			gw.Spec.TLS = &gwv1.GatewayTLSConfig{Frontend: &gwv1.FrontendTLSConfig{Default: gwv1.TLSConfig{
				Validation: &gwv1.FrontendTLSValidation{
					CACertificateRefs: []gwv1.ObjectReference{{Group: "", Kind: "ConfigMap", Name: "ca"}},
					Mode:              mode,
				},
			}}}
		}
	}
	return append(objs, &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: rtNS, Name: "ca"},
		Data:       map[string]string{"ca.crt": string(ca.pem)},
	})
}
