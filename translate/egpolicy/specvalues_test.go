package egpolicy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/resource"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestTrafficProblems(t *testing.T) {
	q := resource.MustParse
	dur := func(s string) *gwv1.Duration { d := gwv1.Duration(s); return &d }
	min := egv1a1.RateLimitUnitMinute
	tests := []struct {
		name string
		spec egv1a1.BackendTrafficPolicySpec
		want string // "" for none
	}{
		{"valid", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Retry: &egv1a1.Retry{PerRetry: &egv1a1.PerRetryPolicy{
			BackOff: &egv1a1.BackOffPolicy{BaseInterval: dur("1s"), MaxInterval: dur("2s")}}}}}, ""},
		{"buffer limit", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{
			Connection: &egv1a1.BackendConnection{BufferLimit: new(q("1T"))}}}, "BackendConnection: BufferLimit value 1T is out of range"},
		{"request buffer", egv1a1.BackendTrafficPolicySpec{RequestBuffer: &egv1a1.RequestBuffer{Limit: q("5000Mi")}},
			"RequestBuffer: limit value 5000Mi is out of range, must be between 0 and 4294967295"},
		{"bandwidth", egv1a1.BackendTrafficPolicySpec{BandwidthLimit: &egv1a1.BandwidthLimitSpec{Request: &egv1a1.BandwidthLimitRequestConfig{
			Limit: egv1a1.BandwidthLimitValue{Value: q("1023"), Unit: egv1a1.BandwidthLimitUnitSecond}}}},
			"BandwidthLimit: request: bandwidth limit of 1023 bytes per Second is below the minimum of 1 KiB/s"},
		{"retry back-off", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Retry: &egv1a1.Retry{PerRetry: &egv1a1.PerRetryPolicy{
			BackOff: &egv1a1.BackOffPolicy{BaseInterval: dur("2s"), MaxInterval: dur("1s")}}}}}, "Retry: maxInterval cannot be less than baseInterval"},
		{"local rate limit unit", egv1a1.BackendTrafficPolicySpec{RateLimit: &egv1a1.RateLimitSpec{Local: &egv1a1.LocalRateLimit{Rules: []egv1a1.RateLimitRule{
			{Limit: egv1a1.RateLimitValue{Requests: 10, Unit: min}},
			{ClientSelectors: []egv1a1.RateLimitSelectCondition{{Methods: []egv1a1.MethodMatch{{Value: "GET"}}}}, Limit: egv1a1.RateLimitValue{Requests: 1, Unit: egv1a1.RateLimitUnitSecond}},
		}}}}, "RateLimit: local rateLimit rule limit unit must be a multiple of the default limit unit"},
		{"timeout", egv1a1.BackendTrafficPolicySpec{ClusterSettings: egv1a1.ClusterSettings{Timeout: &egv1a1.Timeout{
			HTTP: &egv1a1.HTTPTimeout{RequestTimeout: dur("soon")}}}}, "Timeout: invalid RequestTimeout value soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(trafficProblems(&tt.spec), "|")
			if got != tt.want {
				t.Errorf("trafficProblems = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFinish(t *testing.T) {
	if got := finish([]string{"a: x", "b: y."}); got != "A: x\nb: y." {
		t.Errorf("finish = %q", got)
	}
	if got := finish(nil); got != "" {
		t.Errorf("finish(nil) = %q", got)
	}
}

// portWorld has Gateway gw with two plain HTTP listeners on port 80 and
// an HTTPS one, and Gateway other of the same class on port 80.
func portWorld(merged bool) *World {
	http := ListenerSpec{Protocol: gwv1.HTTPProtocolType, Port: 80}
	return &World{
		Gateways: []Gateway{
			{Object: Object{Namespace: "ns", Name: "gw"}, Class: "eg", Listeners: []string{"a", "b", "tls"},
				Specs: []ListenerSpec{http, http, {Protocol: gwv1.HTTPSProtocolType, Port: 80, Terminates: true}}},
			{Object: Object{Namespace: "ns", Name: "other"}, Class: "eg", Listeners: []string{"a"}, Specs: []ListenerSpec{http}},
		},
		MergedClasses: map[string]bool{"eg": merged},
	}
}

// A listener EG does not configure (not Programmed) shares no port.
func TestPortProblemUnserved(t *testing.T) {
	w := portWorld(false)
	w.Gateways[0].Specs[1].Unserved = true
	x := newIndex(w)
	l, _ := x.sectionListener(nn("ns", "gw"), nil, "a")
	if got := x.portProblem(l, scopeSection); got != "" {
		t.Errorf("portProblem = %q, want none", got)
	}
}

func TestPortProblem(t *testing.T) {
	tests := []struct {
		name     string
		merged   bool
		listener string
		scope    ctpScope
		want     string // the listeners named, "" for none
	}{
		{"section shares its port", false, "a", scopeSection, "ns/gw/b"},
		{"the whole Gateway covers both", false, "a", scopeGateway, ""},
		{"TLS has its own filter chain", false, "tls", scopeSection, ""},
		{"merged Gateways share the port", true, "a", scopeGateway, "ns/other/a"},
		{"merged, section", true, "b", scopeSection, "ns/gw/a, ns/other/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newIndex(portWorld(tt.merged))
			l, ok := x.sectionListener(nn("ns", "gw"), nil, tt.listener)
			if !ok {
				t.Fatal("no listener")
			}
			got := x.portProblem(l, tt.scope)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, "("+tt.want+")") {
				t.Errorf("portProblem = %q, want listeners %q", got, tt.want)
			}
		})
	}
}

// A policy EG refuses for its spec displaces the less specific policy of
// its kind (EG answers its routes with a 500) and brings none of its own
// effects: Effective returns it marked Invalid.
func TestEffectiveFailed(t *testing.T) {
	w := world()
	bad := &egv1a1.BackendTrafficPolicy{Spec: egv1a1.BackendTrafficPolicySpec{
		RequestBuffer: &egv1a1.RequestBuffer{Limit: resource.MustParse("5000Mi")}}}
	onGateway := policy(BackendTraffic, "gw-wide", 2, ref("Gateway", "gw", ""))
	onGateway.Object = &egv1a1.BackendTrafficPolicy{}
	onRoute := policy(BackendTraffic, "route", 1, ref("HTTPRoute", "r2", ""))
	onRoute.Object = bad
	r := Attach(w, []Policy{onGateway, onRoute}, Options{})
	got := r.Effective(Point{Gateway: nn("ns", "gw"), Listener: "http", RouteKind: "HTTPRoute", Route: nn("ns", "r2")})
	if len(got) != 1 || got[0].Policy.Name != "route" || got[0].Invalid == "" || !got[0].FailsClosed {
		t.Fatalf("Effective = %+v, want the refused route policy, failing closed", got)
	}
	if s := summary(r, BackendTraffic, "route"); len(s) != 1 || s[0] != "gw/http:Accepted=False/Invalid" && s[0] != "gw:Accepted=False/Invalid" {
		t.Errorf("route policy ancestors = %v", s)
	}
	// r1 is untouched: the Gateway's policy applies there.
	got = r.Effective(Point{Gateway: nn("ns", "gw"), Listener: "http", RouteKind: "HTTPRoute", Route: nn("ns", "r1")})
	if len(got) != 1 || got[0].Policy.Name != "gw-wide" || got[0].Invalid != "" {
		t.Errorf("Effective on r1 = %+v, want the Gateway's policy", got)
	}
}

func TestCRLProblem(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"}, IsCA: true,
		KeyUsage: x509.KeyUsageCRLSign | x509.KeyUsageCertSign, BasicConstraintsValid: true,
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<33, 0), SubjectKeyId: []byte{1}}
	der, err := x509.CreateCertificate(rand.Reader, ca, ca, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(der)
	this, next := time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2005, 2, 6, 12, 0, 0, 0, time.UTC)
	crl, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{Number: big.NewInt(1), ThisUpdate: this, NextUpdate: next}, caCert, key)
	if err != nil {
		t.Fatal(err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: crl})
	for _, tt := range []struct {
		name string
		data []byte
		now  time.Time
		want string
	}{
		{"current", data, time.Date(2005, 1, 10, 0, 0, 0, 0, time.UTC), ""},
		{"expired", data, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "CRL is expired (next update was due at 2005-02-06 12:00:00 +0000 UTC)"},
		{"not yet valid", data, time.Date(2004, 1, 1, 0, 0, 0, 0, time.UTC), "CRL is not yet valid (this update starts at 2005-01-01 00:00:00 +0000 UTC)"},
		{"no time to judge by", data, time.Time{}, ""},
		{"not PEM", []byte("crl"), time.Time{}, "unable to decode pem data for CRL"},
	} {
		if got := crlProblem(tt.data, tt.now); got != tt.want {
			t.Errorf("%s: crlProblem = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// An HTTP/1.0 request gets a default host from the listener's hostname,
// else from the one route with an exact hostname.
func TestHTTP10Problem(t *testing.T) {
	yes := true
	ctp := &egv1a1.ClientTrafficPolicy{Spec: egv1a1.ClientTrafficPolicySpec{HTTP1: &egv1a1.HTTP1Settings{HTTP10: &egv1a1.HTTP10Settings{UseDefaultHost: &yes}}}}
	http := ListenerSpec{Protocol: gwv1.HTTPProtocolType, Port: 80}
	named := http
	named.Hostname = "www.example.com"
	sec := func(s string) *gwv1.SectionName { n := gwv1.SectionName(s); return &n }
	route := func(name, listener string, hosts ...string) Route {
		return Route{Object: Object{Namespace: "ns", Name: name}, Kind: "HTTPRoute", Hostnames: hosts, Matches: 1,
			Parents: []Parent{{Kind: "Gateway", Namespace: "ns", Name: "gw", SectionName: sec(listener), Listeners: []string{listener}}}}
	}
	w := &World{
		Gateways: []Gateway{{Object: Object{Namespace: "ns", Name: "gw"}, Listeners: []string{"named", "none", "one", "two"},
			Specs: []ListenerSpec{named, http, http, http}}},
		Routes: []Route{route("a", "one", "a.example.com"), route("b", "two", "b.example.com"), route("c", "two", "c.example.com", "*.example.com")},
	}
	x := newIndex(w)
	for listener, want := range map[string]string{
		"named": "", "one": "",
		"none": "cannot set http10 default host on listener with only wildcard hostnames",
		"two":  "cannot set http10 default host on listener with only wildcard hostnames and more than one possible default route",
	} {
		l, _ := x.sectionListener(nn("ns", "gw"), nil, listener)
		if got := x.http10Problem(ctp, l); got != want {
			t.Errorf("%s: http10Problem = %q, want %q", listener, got, want)
		}
	}
}

// An EnvoyExtensionPolicy's dynamic module must be allowed by the
// EnvoyProxy of the Gateway it reaches.
func TestModuleProblem(t *testing.T) {
	w := world()
	w.Gateways[0].DynamicModules = []string{"known"}
	mk := func(name, module string) Policy {
		p := policy(EnvoyExtension, name, 1, ref("HTTPRoute", "r2", ""))
		p.Object = &egv1a1.EnvoyExtensionPolicy{Spec: egv1a1.EnvoyExtensionPolicySpec{DynamicModule: []egv1a1.DynamicModule{{Name: module}}}}
		return p
	}
	r := Attach(w, []Policy{mk("ok", "known")}, Options{})
	if len(r.Failed) != 0 {
		t.Errorf("allowed module refused: %+v", r.Failed)
	}
	r = Attach(w, []Policy{mk("bad", "unknown")}, Options{})
	if len(r.Failed) != 1 || !strings.Contains(r.Failed[0].Invalid, `dynamic module "unknown" is not registered`) {
		t.Errorf("Failed = %+v, want the unknown module refused", r.Failed)
	}
}
