package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestGatewayBackendClientCertificate checks spec.tls.backend
// clientCertificateRef: a valid kubernetes.io/tls Secret is presented to
// TLS backends and ResolvedRefs is True; a missing Secret, another kind or
// group, or a Secret without a key pair is InvalidClientCertificateRef; a
// Secret in another namespace needs a ReferenceGrant (RefNotPermitted). The
// Gateway stays Accepted either way. Without a client certificate,
// ResolvedRefs summarises the listeners' (ListenersNotResolved).
func TestGatewayBackendClientCertificate(t *testing.T) {
	crt, key := testCertPEM(t, "client.example.com")
	tlsSecret := func(ns, name string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Type: corev1.SecretTypeTLS,
			Data: map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: key}}
	}
	opaque := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "opaque"}, Type: corev1.SecretTypeOpaque}
	grant := &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: "granted", Name: "g"}, Spec: gwv1.ReferenceGrantSpec{
		From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "Gateway", Namespace: "infra"}},
		To:   []gwv1.ReferenceGrantTo{{Kind: "Secret"}},
	}}
	ref := func(group, kind, ns, name string) *gwv1.SecretObjectReference {
		r := &gwv1.SecretObjectReference{Group: ptr(gwv1.Group(group)), Kind: ptr(gwv1.Kind(kind)), Name: gwv1.ObjectName(name)}
		if ns != "" {
			r.Namespace = ptr(gwv1.Namespace(ns))
		}
		return r
	}
	tests := []struct {
		name       string
		ref        *gwv1.SecretObjectReference
		badCert    bool
		wantStatus metav1.ConditionStatus
		wantReason gwv1.GatewayConditionReason
		wantCert   string
	}{
		{"none", nil, false, metav1.ConditionTrue, gwv1.GatewayReasonResolvedRefs, ""},
		{"valid", ref("", "Secret", "", "client"), false, metav1.ConditionTrue, gwv1.GatewayReasonResolvedRefs, "infra/client"},
		{"missing", ref("", "Secret", "", "nope"), false, metav1.ConditionFalse, gwv1.GatewayReasonInvalidClientCertificateRef, ""},
		{"other group", ref("example.com", "Secret", "", "client"), false, metav1.ConditionFalse, gwv1.GatewayReasonInvalidClientCertificateRef, ""},
		{"other kind", ref("", "ConfigMap", "", "client"), false, metav1.ConditionFalse, gwv1.GatewayReasonInvalidClientCertificateRef, ""},
		{"no key pair", ref("", "Secret", "", "opaque"), false, metav1.ConditionFalse, gwv1.GatewayReasonInvalidClientCertificateRef, ""},
		{"other namespace without grant", ref("", "Secret", "elsewhere", "client"), false, metav1.ConditionFalse, gwv1.GatewayReasonRefNotPermitted, ""},
		{"other namespace with grant", ref("", "Secret", "granted", "client"), false, metav1.ConditionTrue, gwv1.GatewayReasonResolvedRefs, "granted/client"},
		{"listener certificate missing", nil, true, metav1.ConditionFalse, gwv1.GatewayReasonListenersNotResolved, ""},
		{"client certificate outranks listeners", ref("", "Secret", "", "nope"), true, metav1.ConditionFalse, gwv1.GatewayReasonInvalidClientCertificateRef, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tlsWorld(t, tlsPolicy("p", 0, "Service", "svc", "", "ca"))
			gw := in.Gateways[0]
			if tc.ref != nil {
				gw.Spec.TLS = &gwv1.GatewayTLSConfig{Backend: &gwv1.GatewayBackendTLS{ClientCertificateRef: tc.ref}}
			}
			if tc.badCert {
				gw.Spec.Listeners = append(gw.Spec.Listeners, gwv1.Listener{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType,
					TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "missing"}}}})
			}
			in.Secrets = []*corev1.Secret{tlsSecret("infra", "client"), tlsSecret("elsewhere", "client"), tlsSecret("granted", "client"), opaque}
			in.ReferenceGrants = []*gwv1.ReferenceGrant{grant}
			out := translateT(t, in, Options{})
			st := out.Status.Gateways[keyOf("infra", "gw")]
			c := meta.FindStatusCondition(st.Conditions, string(gwv1.GatewayConditionResolvedRefs))
			if c == nil || c.Status != tc.wantStatus || c.Reason != string(tc.wantReason) {
				t.Fatalf("ResolvedRefs = %+v, want %s/%s", c, tc.wantStatus, tc.wantReason)
			}
			if c.ObservedGeneration != gw.Generation {
				t.Errorf("observedGeneration = %d, want %d", c.ObservedGeneration, gw.Generation)
			}
			if !meta.IsStatusConditionTrue(st.Conditions, string(gwv1.GatewayConditionAccepted)) {
				t.Errorf("Gateway not Accepted: %+v", st.Conditions)
			}
			for _, cluster := range []string{"app/svc:443", "app/svc:8443"} {
				if got := clusterTLS(t, out, cluster).ClientCertificate; got != tc.wantCert {
					t.Errorf("cluster %s presents %q, want %q", cluster, got, tc.wantCert)
				}
			}
		})
	}
}
