package translate

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// testCertPEM returns a self-signed CA certificate for host and its key,
// both PEM-encoded.
func testCertPEM(t *testing.T, host string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: host}, DNSNames: []string{host},
		NotBefore: time.Unix(0, 0), NotAfter: time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func caConfigMap(ns, name, data string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if data != "" {
		cm.Data = map[string]string{"ca.crt": data}
	}
	return cm
}

// tlsPolicy is a BackendTLSPolicy in namespace app with one targetRef
// (section may be empty) and CA references to ConfigMaps.
func tlsPolicy(name string, created int64, kind, target, section string, cas ...string) *gwv1.BackendTLSPolicy {
	p := &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name, CreationTimestamp: createdAt(created)}}
	ref := gwv1.LocalPolicyTargetReferenceWithSectionName{LocalPolicyTargetReference: gwv1.LocalPolicyTargetReference{Kind: gwv1.Kind(kind), Name: gwv1.ObjectName(target)}}
	if section != "" {
		ref.SectionName = ptr(gwv1.SectionName(section))
	}
	p.Spec.TargetRefs = []gwv1.LocalPolicyTargetReferenceWithSectionName{ref}
	p.Spec.Validation.Hostname = gwv1.PreciseHostname(name + ".example.com")
	for _, ca := range cas {
		p.Spec.Validation.CACertificateRefs = append(p.Spec.Validation.CACertificateRefs, gwv1.LocalObjectReference{Kind: "ConfigMap", Name: gwv1.ObjectName(ca)})
	}
	return p
}

// tlsWorld is a route in namespace app to Service app/svc on its ports
// 443 ("https-1"), 8443 ("https-2") and 53/UDP ("dns"), and a CA bundle in
// ConfigMap app/ca.
func tlsWorld(t *testing.T, policies ...*gwv1.BackendTLSPolicy) Input {
	caPEM, _ := testCertPEM(t, "ca.example.com")
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "svc"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{
		{Name: "https-1", Port: 443}, {Name: "https-2", Port: 8443}, {Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP},
	}}}
	route := testRoute("app", "r", gwParent(""), "svc")
	route.Spec.Rules[0].BackendRefs = nil
	for _, port := range []gwv1.PortNumber{443, 8443} {
		route.Spec.Rules[0].BackendRefs = append(route.Spec.Rules[0].BackendRefs, gwv1.HTTPBackendRef{BackendRef: gwv1.BackendRef{
			BackendObjectReference: gwv1.BackendObjectReference{Name: "svc", Port: ptr(port)}}})
	}
	return Input{
		GatewayClasses:     []*gwv1.GatewayClass{testClass()},
		Gateways:           []*gwv1.Gateway{testGateway(httpListener("http", 80, ""))},
		HTTPRoutes:         []*gwv1.HTTPRoute{route},
		Services:           []*corev1.Service{svc},
		ConfigMaps:         []*corev1.ConfigMap{caConfigMap("app", "ca", string(caPEM))},
		BackendTLSPolicies: policies,
	}
}

// clusterPolicies returns, per cluster, the policy whose TLS applies
// ("" for plaintext).
func clusterPolicies(out Output) map[string]string {
	got := map[string]string{}
	for _, g := range out.IR.Gateways {
		for _, c := range g.Clusters {
			got[c.Name] = ""
			if c.TLS != nil {
				got[c.Name] = c.TLS.Policy
			}
		}
	}
	return got
}

// policyFindings returns "name field: reason" for every finding about a
// BackendTLSPolicy.
func policyFindings(out Output) []string {
	var got []string
	for _, f := range out.Findings {
		if f.Object.Kind == "BackendTLSPolicy" {
			got = append(got, f.Object.Name+" "+f.Field+": "+f.Reason)
		}
	}
	return got
}

// policyStatuses returns, per policy with status, "Accepted reason,
// ResolvedRefs reason" of its entry for Gateway infra/gw, with a "!" before
// a reason whose condition is False.
func policyStatuses(t *testing.T, out Output) map[string]string {
	t.Helper()
	got := map[string]string{}
	for key, ancestors := range out.Status.BackendTLSPolicies {
		for _, a := range ancestors {
			if a.AncestorRef.Name != "gw" || *a.AncestorRef.Namespace != "infra" {
				continue
			}
			var parts []string
			for _, c := range a.Conditions {
				r := c.Reason
				if c.Status == metav1.ConditionFalse {
					r = "!" + r
				}
				parts = append(parts, c.Type+"="+r)
			}
			got[key.Name] = strings.Join(parts, ",")
		}
	}
	return got
}

const (
	accepted   = "Accepted=Accepted,ResolvedRefs=ResolvedRefs"
	conflicted = "Accepted=!Conflicted,ResolvedRefs=ResolvedRefs"
)

func TestComparePolicyPrecedence(t *testing.T) {
	p := func(ns, name string, created int64) *gwv1.BackendTLSPolicy {
		return &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: createdAt(created)}}
	}
	tests := []struct {
		name   string
		winner *gwv1.BackendTLSPolicy
		loser  *gwv1.BackendTLSPolicy
	}{
		{"older wins", p("app", "zzz", 100), p("app", "aaa", 200)},
		{"same age: first name wins", p("app", "bar", 100), p("app", "baz", 100)},
		{"same age: namespace before name", p("a", "z", 100), p("b", "a", 100)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := comparePolicyPrecedence(tc.winner, tc.loser); got >= 0 {
				t.Errorf("compare(winner, loser) = %d, want < 0", got)
			}
			if got := comparePolicyPrecedence(tc.loser, tc.winner); got <= 0 {
				t.Errorf("compare(loser, winner) = %d, want > 0", got)
			}
		})
	}
}

// TestBackendTLSPolicySelection checks which policy applies to each Service
// port, and the Accepted condition each gets: a policy naming the port by
// sectionName beats one naming the whole Service (no conflict, both
// Accepted); two for the same target conflict and the oldest, then the
// first by name, wins whatever the input order, the other being
// Conflicted; targets that do not exist select nothing and give no status.
func TestBackendTLSPolicySelection(t *testing.T) {
	const c443, c8443 = "app/svc:443", "app/svc:8443"
	tests := []struct {
		name         string
		policies     []*gwv1.BackendTLSPolicy
		want         map[string]string
		wantStatus   map[string]string
		wantFindings []string
	}{
		{"no policy", nil, map[string]string{c443: "", c8443: ""}, map[string]string{}, nil},
		{"whole Service", []*gwv1.BackendTLSPolicy{tlsPolicy("all", 0, "Service", "svc", "", "ca")},
			map[string]string{c443: "app/all", c8443: "app/all"}, map[string]string{"all": accepted}, nil},
		{"sectionName selects one port", []*gwv1.BackendTLSPolicy{tlsPolicy("one", 0, "Service", "svc", "https-2", "ca")},
			map[string]string{c443: "", c8443: "app/one"}, map[string]string{"one": accepted}, nil},
		{"sectionName beats whole Service, even when newer",
			[]*gwv1.BackendTLSPolicy{tlsPolicy("all", 100, "Service", "svc", "", "ca"), tlsPolicy("one", 200, "Service", "svc", "https-1", "ca")},
			map[string]string{c443: "app/one", c8443: "app/all"}, map[string]string{"all": accepted, "one": accepted}, nil},
		{"conflict: older wins",
			[]*gwv1.BackendTLSPolicy{tlsPolicy("a-new", 200, "Service", "svc", "", "ca"), tlsPolicy("z-old", 100, "Service", "svc", "", "ca")},
			map[string]string{c443: "app/z-old", c8443: "app/z-old"}, map[string]string{"a-new": conflicted, "z-old": accepted}, nil},
		{"conflict: same age, first name wins",
			[]*gwv1.BackendTLSPolicy{tlsPolicy("b", 100, "Service", "svc", "https-1", "ca"), tlsPolicy("a", 100, "Service", "svc", "https-1", "ca")},
			map[string]string{c443: "app/a", c8443: ""}, map[string]string{"a": accepted, "b": conflicted}, nil},
		{"sectionName that is no port", []*gwv1.BackendTLSPolicy{tlsPolicy("p", 0, "Service", "svc", "nope", "ca")},
			map[string]string{c443: "", c8443: ""}, map[string]string{}, []string{"p spec.targetRefs[0].sectionName: TargetNotFound"}},
		{"missing Service", []*gwv1.BackendTLSPolicy{tlsPolicy("p", 0, "Service", "other", "", "ca")},
			map[string]string{c443: "", c8443: ""}, map[string]string{}, []string{"p spec.targetRefs[0]: TargetNotFound"}},
		{"target kind other than Service", []*gwv1.BackendTLSPolicy{tlsPolicy("p", 0, "ServiceImport", "svc", "", "ca")},
			map[string]string{c443: "", c8443: ""}, map[string]string{}, []string{"p spec.targetRefs[0]: Invalid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range [][]*gwv1.BackendTLSPolicy{tc.policies, reversed(tc.policies)} {
				out := translateT(t, tlsWorld(t, order...), Options{})
				if diff := cmp.Diff(tc.want, clusterPolicies(out)); diff != "" {
					t.Errorf("policy per cluster (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.wantStatus, policyStatuses(t, out)); diff != "" {
					t.Errorf("policy status (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.wantFindings, policyFindings(out)); diff != "" {
					t.Errorf("findings (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// TestBackendTLSPolicyUDP checks GEP-1897's rule that BackendTLSPolicy
// applies to TCP only: a UDP port of a targeted Service gets no TLS, a
// policy whose sectionName names a UDP port is Accepted=False/Invalid, and
// one targeting a Service with TCP and UDP ports is Accepted with a
// warning in its message.
func TestBackendTLSPolicyUDP(t *testing.T) {
	in := tlsWorld(t, tlsPolicy("all", 0, "Service", "svc", "", "ca"), tlsPolicy("dns", 0, "Service", "svc", "dns", "ca"))
	in.UDPRoutes = []*gwv1.UDPRoute{{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "dns"}, Spec: gwv1.UDPRouteSpec{
		CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{gwParent("dns")}},
		Rules:           []gwv1.UDPRouteRule{{BackendRefs: []gwv1.BackendRef{{BackendObjectReference: gwv1.BackendObjectReference{Name: "svc", Port: ptr(gwv1.PortNumber(53))}}}}},
	}}}
	in.Gateways[0].Spec.Listeners = append(in.Gateways[0].Spec.Listeners, gwv1.Listener{Name: "dns", Port: 53, Protocol: gwv1.UDPProtocolType,
		AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}})
	out := translateT(t, in, Options{})
	got := clusterPolicies(out)
	if p, ok := got["app/svc:53/UDP"]; !ok || p != "" || got["app/svc:443"] != "app/all" {
		t.Errorf("policy per cluster = %v, want none on app/svc:53/UDP and app/all on app/svc:443", got)
	}
	want := map[string]string{"all": accepted, "dns": "Accepted=!Invalid,ResolvedRefs=ResolvedRefs"}
	if diff := cmp.Diff(want, policyStatuses(t, out)); diff != "" {
		t.Errorf("policy status (-want +got):\n%s", diff)
	}
	msg := out.Status.BackendTLSPolicies[keyOf("app", "all")][0].Conditions[0].Message
	if !strings.Contains(msg, "UDP ports") {
		t.Errorf("Accepted message %q, want a warning about the Service's UDP ports", msg)
	}
}

// TestBackendTLSPolicyCARefs checks CA reference resolution: a ConfigMap
// (or Secret) with a ca.crt that parses is used; a missing object, a
// missing key or a malformed bundle is InvalidCACertificateRef; another
// kind is InvalidKind; with no valid reference the policy is
// NoValidCACertificate and the cluster's TLS is marked invalid. Status
// shows it all, so there are no findings.
func TestBackendTLSPolicyCARefs(t *testing.T) {
	ref := func(kind, name string) gwv1.LocalObjectReference {
		return gwv1.LocalObjectReference{Kind: gwv1.Kind(kind), Name: gwv1.ObjectName(name)}
	}
	const (
		noValid   = "Accepted=!NoValidCACertificate,ResolvedRefs=!InvalidCACertificateRef"
		badRefOK  = "Accepted=Accepted,ResolvedRefs=!InvalidCACertificateRef"
		badKind   = "Accepted=!NoValidCACertificate,ResolvedRefs=!InvalidKind"
		wellKnown = "Accepted=!Invalid,ResolvedRefs=ResolvedRefs"
	)
	tests := []struct {
		name        string
		refs        []gwv1.LocalObjectReference
		wellKnown   string
		wantCAs     []string
		wantSystem  bool
		wantInvalid string
		wantStatus  string
	}{
		{"ConfigMap", []gwv1.LocalObjectReference{ref("ConfigMap", "ca")}, "", []string{"ConfigMap app/ca"}, false, "", accepted},
		{"Secret", []gwv1.LocalObjectReference{ref("Secret", "ca-secret")}, "", []string{"Secret app/ca-secret"}, false, "", accepted},
		{"missing ConfigMap", []gwv1.LocalObjectReference{ref("ConfigMap", "nope")}, "", nil, false, "NoValidCACertificate", noValid},
		{"no ca.crt key", []gwv1.LocalObjectReference{ref("ConfigMap", "empty")}, "", nil, false, "NoValidCACertificate", noValid},
		{"malformed PEM", []gwv1.LocalObjectReference{ref("ConfigMap", "garbage")}, "", nil, false, "NoValidCACertificate", noValid},
		{"unsupported kind", []gwv1.LocalObjectReference{{Group: "invalid.io", Kind: "InvalidKind", Name: "x"}}, "", nil, false, "NoValidCACertificate", badKind},
		{"one valid, one not: the valid one is used", []gwv1.LocalObjectReference{ref("ConfigMap", "nope"), ref("ConfigMap", "ca")}, "",
			[]string{"ConfigMap app/ca"}, false, "", badRefOK},
		{"the first invalid reference gives the reason", []gwv1.LocalObjectReference{ref("ConfigMap", "nope"), {Group: "invalid.io", Kind: "InvalidKind", Name: "x"}}, "",
			nil, false, "NoValidCACertificate", noValid},
		{"well-known System", nil, "System", nil, true, "", accepted},
		{"unknown well-known set", nil, "example.com/corp", nil, false, "Invalid", wellKnown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tlsPolicy("p", 0, "Service", "svc", "https-1")
			p.Spec.Validation.CACertificateRefs = tc.refs
			if tc.wellKnown != "" {
				p.Spec.Validation.WellKnownCACertificates = ptr(gwv1.WellKnownCACertificatesType(tc.wellKnown))
			}
			in := tlsWorld(t, p)
			caPEM := in.ConfigMaps[0].Data["ca.crt"]
			in.ConfigMaps = append(in.ConfigMaps, caConfigMap("app", "empty", ""), caConfigMap("app", "garbage", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n"))
			in.Secrets = []*corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "ca-secret"}, Data: map[string][]byte{"ca.crt": []byte(caPEM)}}}
			out := translateT(t, in, Options{})
			tls := clusterTLS(t, out, "app/svc:443")
			var cas []string
			for _, ca := range tls.CACertificates {
				cas = append(cas, ca.Kind+" "+ca.Name)
				if ca.Key != "ca.crt" || ca.Certificates != 1 {
					t.Errorf("CA %+v, want key ca.crt with 1 certificate", ca)
				}
			}
			if diff := cmp.Diff(tc.wantCAs, cas); diff != "" {
				t.Errorf("CA certificates (-want +got):\n%s", diff)
			}
			if (tls.WellKnownCACertificates == "System") != tc.wantSystem || tls.Invalid != tc.wantInvalid {
				t.Errorf("wellKnown=%q invalid=%q, want system=%v invalid=%q", tls.WellKnownCACertificates, tls.Invalid, tc.wantSystem, tc.wantInvalid)
			}
			if tls.SNI != "p.example.com" {
				t.Errorf("SNI = %q, want the policy's hostname", tls.SNI)
			}
			if got := policyStatuses(t, out)["p"]; got != tc.wantStatus {
				t.Errorf("status = %s, want %s", got, tc.wantStatus)
			}
			if got := policyFindings(out); got != nil {
				t.Errorf("findings = %v, want none (status shows them)", got)
			}
		})
	}
}

// TestBackendTLSPolicyUnreachedFindings checks that a policy no Gateway
// reaches gets no status, so its problems are findings, with a note that
// it applies nowhere.
func TestBackendTLSPolicyUnreachedFindings(t *testing.T) {
	in := tlsWorld(t, tlsPolicy("p", 0, "Service", "idle", "", "nope"))
	in.Services = append(in.Services, testService("app", "idle"))
	out := translateT(t, in, Options{})
	if len(out.Status.BackendTLSPolicies) != 0 {
		t.Errorf("status = %v, want none", out.Status.BackendTLSPolicies)
	}
	want := []string{
		"p spec.targetRefs: NoEffect",
		"p spec.validation.caCertificateRefs: NoValidCACertificate",
		"p spec.validation.caCertificateRefs[0]: InvalidCACertificateRef",
	}
	got := policyFindings(out)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestBackendTLSPolicyAncestors checks the entries themselves: one per
// Gateway that routes to a targeted port, sorted by Gateway, naming the
// Gateway and its class's controller, stamped with the policy's
// generation; a Gateway whose routes reach only ports the policy does not
// select gets none.
func TestBackendTLSPolicyAncestors(t *testing.T) {
	p := tlsPolicy("p", 0, "Service", "svc", "https-2", "ca")
	p.Generation = 7
	in := tlsWorld(t, p)
	other := testGateway(httpListener("http", 80, ""))
	other.Name = "a-gw"
	third := testGateway(httpListener("http", 80, ""))
	third.Name = "z-gw"
	in.Gateways = append(in.Gateways, other, third)
	r := in.HTTPRoutes[0]
	r.Spec.ParentRefs = append(r.Spec.ParentRefs, gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "a-gw"})
	only443 := testRoute("app", "only-443", gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "z-gw"}, "svc")
	only443.Spec.Rules[0].BackendRefs[0].Port = ptr(gwv1.PortNumber(443))
	in.HTTPRoutes = append(in.HTTPRoutes, only443)
	out := translateT(t, in, Options{Now: metav1.Unix(10, 0)})
	got := out.Status.BackendTLSPolicies[keyOf("app", "p")]
	var names []string
	for _, a := range got {
		names = append(names, string(*a.AncestorRef.Namespace)+"/"+string(a.AncestorRef.Name))
		if *a.AncestorRef.Group != gwv1.GroupName || *a.AncestorRef.Kind != "Gateway" || a.ControllerName != "example.com/c" {
			t.Errorf("ancestor %+v, want a Gateway of example.com/c", a)
		}
		for _, c := range a.Conditions {
			if c.ObservedGeneration != 7 || !c.LastTransitionTime.Equal(&metav1.Time{Time: time.Unix(10, 0)}) {
				t.Errorf("condition %+v, want observedGeneration 7 and the translation time", c)
			}
		}
	}
	if diff := cmp.Diff([]string{"infra/a-gw", "infra/gw"}, names); diff != "" {
		t.Errorf("ancestors (-want +got):\n%s", diff)
	}
}

func TestBackendTLSPolicySANsAndOptions(t *testing.T) {
	p := tlsPolicy("p", 0, "Service", "svc", "", "ca")
	p.Spec.Validation.SubjectAltNames = []gwv1.SubjectAltName{
		{Type: gwv1.HostnameSubjectAltNameType, Hostname: "a.example.com"},
		{Type: gwv1.URISubjectAltNameType, URI: "spiffe://cluster/ns/app/sa/svc"},
	}
	p.Spec.Options = map[gwv1.AnnotationKey]gwv1.AnnotationValue{"example.com/min-version": "1.3"}
	tls := clusterTLS(t, translateT(t, tlsWorld(t, p), Options{}), "app/svc:8443")
	want := []ir.SubjectAltName{{Type: "Hostname", Value: "a.example.com"}, {Type: "URI", Value: "spiffe://cluster/ns/app/sa/svc"}}
	if diff := cmp.Diff(want, tls.SubjectAltNames); diff != "" {
		t.Errorf("SANs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"example.com/min-version": "1.3"}, tls.Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

func clusterTLS(t *testing.T, out Output, name string) *ir.BackendTLS {
	t.Helper()
	for _, g := range out.IR.Gateways {
		for _, c := range g.Clusters {
			if c.Name == name {
				if c.TLS == nil {
					t.Fatalf("cluster %s has no TLS", name)
				}
				return c.TLS
			}
		}
	}
	t.Fatalf("no cluster %s", name)
	return nil
}
