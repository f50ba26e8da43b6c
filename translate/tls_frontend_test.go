package translate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

func caObjRef(ns, kind, name string) gwv1.ObjectReference {
	ref := gwv1.ObjectReference{Kind: gwv1.Kind(kind), Name: gwv1.ObjectName(name)}
	if ns != "" {
		ref.Namespace = ptr(gwv1.Namespace(ns))
	}
	return ref
}

// frontendWorld is Gateway infra/gw with an HTTP listener on 80 and HTTPS
// listeners "https" on 443 and "alt" on 8443 (certificate Secret
// infra/cert), and CA bundles in ConfigMaps infra/ca and other/ca.
func frontendWorld(t *testing.T, frontend *gwv1.FrontendTLSConfig) Input {
	certPEM, keyPEM := testCertPEM(t, "gw.example.com")
	https := func(name string, port int32) gwv1.Listener {
		l := httpListener(name, port, "")
		l.Protocol = gwv1.HTTPSProtocolType
		l.TLS = &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Name: "cert"}}}
		return l
	}
	gw := testGateway(httpListener("http", 80, ""), https("https", 443), https("alt", 8443))
	gw.Spec.TLS = &gwv1.GatewayTLSConfig{Frontend: frontend}
	return Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{gw},
		Secrets: []*corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "cert"}, Type: corev1.SecretTypeTLS,
			Data: map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM}}},
		ConfigMaps: []*corev1.ConfigMap{caConfigMap("infra", "ca", string(certPEM)), caConfigMap("other", "ca", string(certPEM))},
	}
}

// listenerReasons returns "Accepted ResolvedRefs Programmed" reasons of a
// listener, with "!" before a False one.
func listenerReasons(t *testing.T, out Output, name string) string {
	t.Helper()
	for _, l := range out.Status.Gateways[keyOf("infra", "gw")].Listeners {
		if string(l.Name) != name {
			continue
		}
		s := ""
		for _, typ := range []string{"Accepted", "ResolvedRefs", "Programmed"} {
			c := meta.FindStatusCondition(l.Conditions, typ)
			if s != "" {
				s += " "
			}
			if c.Status == metav1.ConditionFalse {
				s += "!"
			}
			s += c.Reason
		}
		return s
	}
	t.Fatalf("no listener %s", name)
	return ""
}

// irValidation returns the frontend validation of listener name in the IR,
// nil when it has none, and whether the listener is in the IR at all.
func irValidation(out Output, name string) (*ir.FrontendValidation, bool) {
	for _, g := range out.IR.Gateways {
		for _, p := range g.Listeners {
			for _, tls := range p.TLS {
				if tls.Listener == name {
					return tls.FrontendValidation, true
				}
			}
		}
	}
	return nil, false
}

const healthy = "Accepted ResolvedRefs Programmed"

// TestFrontendValidationConditions checks Gateway spec.tls.frontend on
// HTTPS listeners: the perPort entry for a listener's port overrides the
// default; each invalid CA reference gives ResolvedRefs False with the
// spec's reason (InvalidCACertificateKind, RefNotPermitted,
// InvalidCACertificateRef, in that order of checks); with no valid one the
// listener is not Accepted (NoValidCACertificate); HTTP listeners are never
// affected.
func TestFrontendValidationConditions(t *testing.T) {
	validation := func(refs ...gwv1.ObjectReference) gwv1.TLSConfig {
		return gwv1.TLSConfig{Validation: &gwv1.FrontendTLSValidation{CACertificateRefs: refs}}
	}
	grant := &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "g"}, Spec: gwv1.ReferenceGrantSpec{
		From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "Gateway", Namespace: "infra"}},
		To:   []gwv1.ReferenceGrantTo{{Group: "", Kind: "ConfigMap"}},
	}}
	tests := []struct {
		name          string
		frontend      gwv1.FrontendTLSConfig
		grants        []*gwv1.ReferenceGrant
		wantHTTPS     string
		wantAlt       string
		wantHTTPSCAs  []string // nil: not in the IR or no validation
		wantAltCAs    []string
		wantHTTPSInIR bool
		wantAltInIR   bool
	}{
		{name: "default applies to every HTTPS listener", frontend: gwv1.FrontendTLSConfig{Default: validation(caObjRef("", "ConfigMap", "ca"))},
			wantHTTPS: healthy, wantAlt: healthy, wantHTTPSCAs: []string{"infra/ca"}, wantAltCAs: []string{"infra/ca"}, wantHTTPSInIR: true, wantAltInIR: true},
		{name: "perPort overrides the default on its port",
			frontend: gwv1.FrontendTLSConfig{Default: validation(caObjRef("", "ConfigMap", "nope")),
				PerPort: []gwv1.TLSPortConfig{{Port: 8443, TLS: validation(caObjRef("", "ConfigMap", "ca"))}}},
			wantHTTPS: "!NoValidCACertificate !InvalidCACertificateRef !Invalid", wantAlt: healthy, wantAltCAs: []string{"infra/ca"}, wantAltInIR: true},
		{name: "unsupported kind", frontend: gwv1.FrontendTLSConfig{Default: validation(caObjRef("", "Service", "ca"))},
			wantHTTPS: "!NoValidCACertificate !InvalidCACertificateKind !Invalid", wantAlt: "!NoValidCACertificate !InvalidCACertificateKind !Invalid"},
		{name: "other namespace without a grant", frontend: gwv1.FrontendTLSConfig{Default: validation(caObjRef("other", "ConfigMap", "ca"))},
			wantHTTPS: "!NoValidCACertificate !RefNotPermitted !Invalid", wantAlt: "!NoValidCACertificate !RefNotPermitted !Invalid"},
		{name: "other namespace with a grant", frontend: gwv1.FrontendTLSConfig{Default: validation(caObjRef("other", "ConfigMap", "ca"))},
			grants: []*gwv1.ReferenceGrant{grant}, wantHTTPS: healthy, wantAlt: healthy,
			wantHTTPSCAs: []string{"other/ca"}, wantAltCAs: []string{"other/ca"}, wantHTTPSInIR: true, wantAltInIR: true},
		{name: "one valid, one missing: accepted with the valid one",
			frontend:  gwv1.FrontendTLSConfig{Default: validation(caObjRef("", "ConfigMap", "nope"), caObjRef("", "ConfigMap", "ca"))},
			wantHTTPS: "Accepted !InvalidCACertificateRef !Invalid", wantAlt: "Accepted !InvalidCACertificateRef !Invalid",
			wantHTTPSCAs: []string{"infra/ca"}, wantAltCAs: []string{"infra/ca"}, wantHTTPSInIR: true, wantAltInIR: true},
		{name: "perPort only: other ports have no validation",
			frontend:  gwv1.FrontendTLSConfig{PerPort: []gwv1.TLSPortConfig{{Port: 8443, TLS: validation(caObjRef("", "Secret", "cert"))}}},
			wantHTTPS: healthy, wantAlt: "!NoValidCACertificate !InvalidCACertificateRef !Invalid", wantHTTPSInIR: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := frontendWorld(t, &tc.frontend)
			in.ReferenceGrants = tc.grants
			out := translateT(t, in, Options{})
			if got := listenerReasons(t, out, "http"); got != healthy {
				t.Errorf("http listener = %q, want %q", got, healthy)
			}
			for _, l := range []struct {
				name, want string
				cas        []string
				inIR       bool
			}{{"https", tc.wantHTTPS, tc.wantHTTPSCAs, tc.wantHTTPSInIR}, {"alt", tc.wantAlt, tc.wantAltCAs, tc.wantAltInIR}} {
				if got := listenerReasons(t, out, l.name); got != l.want {
					t.Errorf("%s listener = %q, want %q", l.name, got, l.want)
				}
				v, inIR := irValidation(out, l.name)
				if inIR != l.inIR {
					t.Errorf("%s in IR = %v, want %v", l.name, inIR, l.inIR)
				}
				var cas []string
				if v != nil {
					for _, ca := range v.CACertificates {
						cas = append(cas, ca.Name)
					}
					if v.Mode != "AllowValidOnly" {
						t.Errorf("%s mode = %q, want the default AllowValidOnly", l.name, v.Mode)
					}
				}
				if diff := cmp.Diff(l.cas, cas); diff != "" {
					t.Errorf("%s CA certificates (-want +got):\n%s", l.name, diff)
				}
			}
		})
	}
}

// TestInsecureFrontendValidationMode checks the Gateway condition the spec
// sets while any validation (default or perPort) is AllowInsecureFallback,
// and that it is absent otherwise.
func TestInsecureFrontendValidationMode(t *testing.T) {
	v := func(mode gwv1.FrontendValidationModeType) gwv1.TLSConfig {
		return gwv1.TLSConfig{Validation: &gwv1.FrontendTLSValidation{CACertificateRefs: []gwv1.ObjectReference{caObjRef("", "ConfigMap", "ca")}, Mode: mode}}
	}
	tests := []struct {
		name     string
		frontend gwv1.FrontendTLSConfig
		want     bool
	}{
		{"default mode", gwv1.FrontendTLSConfig{Default: v("")}, false},
		{"AllowValidOnly", gwv1.FrontendTLSConfig{Default: v(gwv1.AllowValidOnly)}, false},
		{"default insecure", gwv1.FrontendTLSConfig{Default: v(gwv1.AllowInsecureFallback)}, true},
		{"perPort insecure", gwv1.FrontendTLSConfig{Default: v(""), PerPort: []gwv1.TLSPortConfig{{Port: 8443, TLS: v(gwv1.AllowInsecureFallback)}}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := translateT(t, frontendWorld(t, &tc.frontend), Options{})
			c := meta.FindStatusCondition(out.Status.Gateways[keyOf("infra", "gw")].Conditions, "InsecureFrontendValidationMode")
			if got := c != nil; got != tc.want {
				t.Fatalf("InsecureFrontendValidationMode present = %v, want %v", got, tc.want)
			}
			if c != nil && (c.Status != metav1.ConditionTrue || c.Reason != "ConfigurationChanged") {
				t.Errorf("condition = %s/%s, want True/ConfigurationChanged", c.Status, c.Reason)
			}
		})
	}
}

func TestFrontendValidationFor(t *testing.T) {
	gw := testGateway()
	if v, _ := frontendValidationFor(gw, 443); v != nil {
		t.Errorf("no spec.tls: got %+v", v)
	}
	def := &gwv1.FrontendTLSValidation{Mode: gwv1.AllowValidOnly}
	per := &gwv1.FrontendTLSValidation{Mode: gwv1.AllowInsecureFallback}
	gw.Spec.TLS = &gwv1.GatewayTLSConfig{Frontend: &gwv1.FrontendTLSConfig{
		Default: gwv1.TLSConfig{Validation: def},
		PerPort: []gwv1.TLSPortConfig{{Port: 9443}, {Port: 8443, TLS: gwv1.TLSConfig{Validation: per}}},
	}}
	for _, tc := range []struct {
		port      gwv1.PortNumber
		want      *gwv1.FrontendTLSValidation
		wantField string
	}{
		{443, def, "spec.tls.frontend.default.validation"},
		{8443, per, "spec.tls.frontend.perPort[1].tls.validation"},
		{9443, nil, "spec.tls.frontend.perPort[0].tls.validation"}, // a perPort entry without validation turns it off
	} {
		v, field := frontendValidationFor(gw, tc.port)
		if v != tc.want || field != tc.wantField {
			t.Errorf("port %d: got %p %q, want %p %q", tc.port, v, field, tc.want, tc.wantField)
		}
	}
}
