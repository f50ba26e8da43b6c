package translate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

func testListenerSet(ns, name string, created int64, listeners ...gwv1.Listener) *gwv1.ListenerSet {
	ls := &gwv1.ListenerSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 3, CreationTimestamp: metav1.NewTime(time.Unix(created, 0))},
		Spec:       gwv1.ListenerSetSpec{ParentRef: gwv1.ParentGatewayReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "gw"}},
	}
	for _, l := range listeners {
		ls.Spec.Listeners = append(ls.Spec.Listeners, gwv1.ListenerEntry{
			Name: l.Name, Hostname: l.Hostname, Port: l.Port, Protocol: l.Protocol, TLS: l.TLS, AllowedRoutes: l.AllowedRoutes,
		})
	}
	return ls
}

func allowListeners(g *gwv1.Gateway, from gwv1.FromNamespaces, selector map[string]string) *gwv1.Gateway {
	g.Spec.AllowedListeners = &gwv1.AllowedListeners{Namespaces: &gwv1.ListenerNamespaces{From: &from}}
	if selector != nil {
		g.Spec.AllowedListeners.Namespaces.Selector = &metav1.LabelSelector{MatchLabels: selector}
	}
	return g
}

func lsParent(ns, name, section string) gwv1.ParentReference {
	p := gwv1.ParentReference{Kind: ptr(gwv1.Kind("ListenerSet")), Namespace: ptr(gwv1.Namespace(ns)), Name: gwv1.ObjectName(name)}
	if section != "" {
		p.SectionName = ptr(gwv1.SectionName(section))
	}
	return p
}

// lsReasons renders a ListenerSet's Accepted and Programmed reasons and,
// per listener entry, its Accepted reason and attachedRoutes.
func lsReasons(t *testing.T, out Output, ns, name string) string {
	t.Helper()
	st, ok := out.Status.ListenerSets[types.NamespacedName{Namespace: ns, Name: name}]
	if !ok {
		return "no status"
	}
	s := st.Conditions[0].Reason + "/" + st.Conditions[1].Reason
	for _, l := range st.Listeners {
		s += fmt.Sprintf(" %s=%s:%d", l.Name, l.Conditions[0].Reason, l.AttachedRoutes)
	}
	return s
}

func TestClashIsSymmetric(t *testing.T) {
	tcp := gwv1.Listener{Name: "t", Port: 80, Protocol: gwv1.TCPProtocolType}
	udp := gwv1.Listener{Name: "u", Port: 80, Protocol: gwv1.UDPProtocolType}
	tls := gwv1.Listener{Name: "s", Port: 80, Protocol: gwv1.TLSProtocolType, Hostname: ptr(gwv1.Hostname("a.example.com"))}
	https := gwv1.Listener{Name: "h", Port: 80, Protocol: gwv1.HTTPSProtocolType, Hostname: ptr(gwv1.Hostname("a.example.com"))}
	for _, tc := range []struct {
		name string
		a, b gwv1.Listener
		want string
	}{
		{"HTTP listeners with different hostnames are distinct", httpListener("a", 80, "a.example.com"), httpListener("b", 80, "b.example.com"), ""},
		{"same hostname on one port", httpListener("a", 80, "a.example.com"), httpListener("b", 80, "a.example.com"), "HostnameConflict"},
		{"no hostname twice", httpListener("a", 80, ""), httpListener("b", 80, ""), "HostnameConflict"},
		{"other port", httpListener("a", 80, "a.example.com"), httpListener("b", 81, "a.example.com"), ""},
		{"HTTP and TCP on one port", httpListener("a", 80, "a.example.com"), tcp, "ProtocolConflict"},
		{"two TCP listeners on one port", tcp, gwv1.Listener{Name: "t2", Port: 80, Protocol: gwv1.TCPProtocolType}, "ProtocolConflict"},
		{"TCP and UDP share a port number", tcp, udp, ""},
		{"HTTPS and TLS with one hostname", https, tls, "HostnameConflict"},
		{"unsupported protocol clashes with nothing", tcp, gwv1.Listener{Name: "x", Port: 80, Protocol: "SCTP"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, back := clash(tc.a, tc.b), clash(tc.b, tc.a); got != tc.want || back != tc.want {
				t.Errorf("clash = %q, reversed %q; want %q", got, back, tc.want)
			}
		})
	}
}

func TestListenerSetAllowed(t *testing.T) {
	ls := func(ns string) *gwv1.ListenerSet {
		return testListenerSet(ns, "ls", 1, httpListener("l", 80, "ls.example.com"))
	}
	for _, tc := range []struct {
		name string
		gw   *gwv1.Gateway
		set  *gwv1.ListenerSet
		want string
	}{
		{"allowedListeners unset: None", testGateway(httpListener("g", 80, "gw.example.com")), ls("infra"), "NotAllowed/NotAllowed"},
		{"None", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromNone, nil), ls("infra"), "NotAllowed/NotAllowed"},
		{"Same, same namespace", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromSame, nil), ls("infra"), "Accepted/Programmed l=Accepted:0"},
		{"Same, other namespace", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromSame, nil), ls("apps"), "NotAllowed/NotAllowed"},
		{"All", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromAll, nil), ls("apps"), "Accepted/Programmed l=Accepted:0"},
		{"Selector matches the namespace labels", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromSelector, map[string]string{"team": "a"}), ls("apps"), "Accepted/Programmed l=Accepted:0"},
		{"Selector does not match", allowListeners(testGateway(httpListener("g", 80, "gw.example.com")), gwv1.NamespacesFromSelector, map[string]string{"team": "b"}), ls("apps"), "NotAllowed/NotAllowed"},
		{"Gateway not accepted", allowListeners(testGateway(gwv1.Listener{Name: "g", Port: 80, Protocol: "SCTP"}), gwv1.NamespacesFromAll, nil), ls("apps"), "ParentNotAccepted/ParentNotAccepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := translateT(t, Input{
				GatewayClasses: []*gwv1.GatewayClass{testClass()},
				Gateways:       []*gwv1.Gateway{tc.gw},
				ListenerSets:   []*gwv1.ListenerSet{tc.set},
				Namespaces:     []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "apps", Labels: map[string]string{"team": "a"}}}},
			}, Options{})
			if got := lsReasons(t, out, tc.set.Namespace, tc.set.Name); got != tc.want {
				t.Errorf("ListenerSet status = %s, want %s", got, tc.want)
			}
			gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
			wantAttached := int32(0)
			if tc.want[:8] == "Accepted" {
				wantAttached = 1
			}
			if gs.AttachedListenerSets == nil || *gs.AttachedListenerSets != wantAttached {
				t.Errorf("attachedListenerSets = %v, want %d", gs.AttachedListenerSets, wantAttached)
			}
			if len(gs.Listeners) != 1 {
				t.Errorf("Gateway status lists %d listeners, want its own one only", len(gs.Listeners))
			}
		})
	}
}

// TestListenerSetPrecedence checks the merged list's order: the Gateway's
// own listeners win, then the oldest ListenerSet, then namespace/name; the
// input order does not matter. Within one ListenerSet the Gateway's rule
// applies to the entries precedence left in play: entries that clash are
// all conflicted, none wins (c/tcp-first, d/inner), and an entry that lost
// to precedence conflicts with no other entry (a/twin's after, d/inner's r).
func TestListenerSetPrecedence(t *testing.T) {
	tcp := gwv1.Listener{Name: "tcp", Port: 80, Protocol: gwv1.TCPProtocolType}
	gw := allowListeners(testGateway(httpListener("own", 80, "own.example.com")), gwv1.NamespacesFromAll, nil)
	sets := []*gwv1.ListenerSet{
		testListenerSet("b", "old", 1, httpListener("dup", 80, "own.example.com"), httpListener("ok", 80, "old.example.com")),
		testListenerSet("a", "young", 5, httpListener("ok", 80, "old.example.com"), httpListener("mine", 80, "young.example.com")),
		testListenerSet("a", "twin", 1, httpListener("ok", 80, "twin.example.com"), tcp, httpListener("after", 80, "after.example.com")),
		testListenerSet("c", "tcp-first", 9, gwv1.Listener{Name: "t", Port: 90, Protocol: gwv1.TCPProtocolType}, httpListener("h", 90, "h.example.com")),
		testListenerSet("d", "inner", 9, gwv1.Listener{Name: "x", Port: 80, Protocol: gwv1.TCPProtocolType}, httpListener("r", 80, "r.example.com"),
			httpListener("p", 91, "p.example.com"), httpListener("q", 91, "p.example.com")),
	}
	want := map[string]string{
		"b/old":       "ListenersNotValid/Programmed dup=HostnameConflict:0 ok=Accepted:0",
		"a/twin":      "ListenersNotValid/Programmed ok=Accepted:0 tcp=ProtocolConflict:0 after=Accepted:0",
		"a/young":     "ListenersNotValid/Programmed ok=HostnameConflict:0 mine=Accepted:0",
		"c/tcp-first": "ListenersNotValid/ListenersNotValid t=ProtocolConflict:0 h=ProtocolConflict:0",
		"d/inner":     "ListenersNotValid/Programmed x=ProtocolConflict:0 r=Accepted:0 p=HostnameConflict:0 q=HostnameConflict:0",
	}
	for _, order := range [][]*gwv1.ListenerSet{sets, reversed(sets)} {
		out := translateT(t, Input{GatewayClasses: []*gwv1.GatewayClass{testClass()}, Gateways: []*gwv1.Gateway{gw}, ListenerSets: order}, Options{})
		for k, w := range want {
			ns, name, _ := strings.Cut(k, "/")
			if got := lsReasons(t, out, ns, name); got != w {
				t.Errorf("%s: %s, want %s", k, got, w)
			}
		}
		gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
		if c := gs.Listeners[0].Conditions[0]; c.Reason != string(gwv1.ListenerReasonAccepted) {
			t.Errorf("the Gateway's own listener is %s, want Accepted: it takes precedence", c.Reason)
		}
	}
}

// TestListenerSetRouteAttachment checks that a route reaches a
// ListenerSet's listeners only through a ListenerSet parentRef, that
// allowedRoutes "Same" means the ListenerSet's namespace, and that
// attachedRoutes is counted per listener even where names repeat.
func TestListenerSetRouteAttachment(t *testing.T) {
	same := httpListener("http", 80, "apps.example.com")
	same.AllowedRoutes = nil // from: Same
	in := Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{allowListeners(testGateway(httpListener("http", 80, "gw.example.com")), gwv1.NamespacesFromAll, nil)},
		ListenerSets: []*gwv1.ListenerSet{
			testListenerSet("apps", "ls", 1, same),
			testListenerSet("apps", "closed", 1, httpListener("http", 81, "")),
		},
		HTTPRoutes: []*gwv1.HTTPRoute{
			testRoute("apps", "via-ls", lsParent("apps", "ls", ""), "svc"),
			testRoute("apps", "via-section", lsParent("apps", "ls", "http"), "svc"),
			testRoute("apps", "gw-section-of-ls", gwParent("missing"), "svc"),
			testRoute("other", "wrong-ns", lsParent("apps", "ls", ""), "svc"),
			testRoute("apps", "no-such-ls", lsParent("apps", "nope", ""), "svc"),
			testRoute("apps", "gateway-only", gwParent(""), "svc"),
		},
		Services: []*corev1.Service{testService("apps", "svc"), testService("other", "svc")},
	}
	in.ListenerSets[1].Spec.ParentRef.Name = "elsewhere"
	out := translateT(t, in, Options{})
	for name, want := range map[string]string{
		"via-ls":           "Accepted",
		"via-section":      "Accepted",
		"gw-section-of-ls": "NoMatchingParent",
		"gateway-only":     "Accepted",
	} {
		if got, _ := routeConds(t, out, "apps", name); got != want {
			t.Errorf("%s: Accepted reason %s, want %s", name, got, want)
		}
	}
	if got, _ := routeConds(t, out, "other", "wrong-ns"); got != string(gwv1.RouteReasonNotAllowedByListeners) {
		t.Errorf("wrong-ns: Accepted reason %s, want NotAllowedByListeners (Same is the ListenerSet's namespace)", got)
	}
	if _, ok := out.Status.Routes[diag.ObjectRef{Kind: "HTTPRoute", Namespace: "apps", Name: "no-such-ls"}]; ok {
		t.Errorf("no-such-ls has a parent status; a missing ListenerSet gets a finding only")
	}
	if got := lsReasons(t, out, "apps", "ls"); got != "Accepted/Programmed http=Accepted:2" {
		t.Errorf("ListenerSet apps/ls = %s, want http with 2 attached routes", got)
	}
	gs := out.Status.Gateways[types.NamespacedName{Namespace: "infra", Name: "gw"}]
	if n := gs.Listeners[0].AttachedRoutes; n != 1 {
		t.Errorf("the Gateway's own http listener has %d routes, want 1 (gateway-only)", n)
	}
	var listeners []string
	for _, p := range out.IR.Gateways[0].Listeners {
		for _, l := range p.Listeners {
			listeners = append(listeners, l.Name+"<"+l.ListenerSet+">")
		}
	}
	if fmt.Sprint(listeners) != "[apps/ls/http<apps/ls> http<>]" {
		t.Errorf("IR listeners = %v, want the ListenerSet's listener named after it", listeners)
	}
}

// TestListenerSetCertificateGrant checks that a ReferenceGrant to Gateways
// does not extend to a ListenerSet's certificateRefs, nor the reverse.
func TestListenerSetCertificateGrant(t *testing.T) {
	certPEM, keyPEM := testCertPEM(t, "ls.example.com")
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "certs", Name: "cert"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{corev1.TLSCertKey: certPEM, corev1.TLSPrivateKeyKey: keyPEM}}
	https := func(name string) gwv1.Listener {
		return gwv1.Listener{Name: gwv1.SectionName(name), Port: 443, Protocol: gwv1.HTTPSProtocolType, Hostname: ptr(gwv1.Hostname(name + ".example.com")),
			TLS: &gwv1.ListenerTLSConfig{CertificateRefs: []gwv1.SecretObjectReference{{Namespace: ptr(gwv1.Namespace("certs")), Name: "cert"}}}}
	}
	grant := func(kind string) *gwv1.ReferenceGrant {
		return &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: "certs", Name: kind},
			Spec: gwv1.ReferenceGrantSpec{From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: gwv1.Kind(kind), Namespace: "infra"}},
				To: []gwv1.ReferenceGrantTo{{Kind: "Secret"}}}}
	}
	for _, tc := range []struct {
		grant  string
		wantLS string
	}{
		{"Gateway", "RefNotPermitted"},
		{"ListenerSet", "ResolvedRefs"},
	} {
		t.Run(tc.grant, func(t *testing.T) {
			out := translateT(t, Input{
				GatewayClasses:  []*gwv1.GatewayClass{testClass()},
				Gateways:        []*gwv1.Gateway{allowListeners(testGateway(httpListener("g", 80, "")), gwv1.NamespacesFromSame, nil)},
				ListenerSets:    []*gwv1.ListenerSet{testListenerSet("infra", "ls", 1, https("ls"))},
				Secrets:         []*corev1.Secret{secret},
				ReferenceGrants: []*gwv1.ReferenceGrant{grant(tc.grant)},
			}, Options{})
			st := out.Status.ListenerSets[types.NamespacedName{Namespace: "infra", Name: "ls"}]
			if got := st.Listeners[0].Conditions[2].Reason; got != tc.wantLS {
				t.Errorf("ListenerSet listener ResolvedRefs reason %s, want %s", got, tc.wantLS)
			}
		})
	}
}
