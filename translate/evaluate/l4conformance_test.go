package evaluate_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/evaluate"
)

// l4Conn is one connection an upstream test makes: to a Gateway of the
// gateway-conformance-infra namespace, on a port, with a protocol and SNI.
// cluster is the backend it must reach ("namespace/service:port", "/UDP"
// for UDP), or "" when the test expects the connection to fail; mode, when
// set, is the TLS mode it must go through (the upstream tests check whether
// the backend sees TLS).
type l4Conn struct {
	gateway  string
	port     int32
	protocol string
	sni      string
	cluster  string
	mode     string
}

// l4Cond is a route condition an upstream test asserts on one parent
// Gateway; the status is True exactly when the reason is the type's
// positive reason (Accepted, ResolvedRefs).
type l4Cond struct {
	kind, route, gateway, condType, reason string
}

// l4Weights is a weighted-routing check: over seeds 0..99 the connection
// reaches each cluster that many times.
type l4Weights struct {
	conn l4Conn
	want map[string]int
}

// l4NS is the namespace of the upstream tests' Gateways and routes.
const l4NS = "gateway-conformance-infra"

func infra(s string) string { return l4NS + "/" + s }

// TestL4Conformance runs the TLSRoute, TCPRoute and UDPRoute conformance
// tests of sigs.k8s.io/gateway-api/conformance@v1.6.3 (tests/*.go, manifests
// copied under testdata/l4-conformance) through gwsim's whole pipeline
// (loader, offline controller, translate) and checks the route conditions,
// the listeners' attachedRoutes and the connections each upstream test
// asserts, the latter through EvaluateConnection. The tlsroute-listener-*
// tests check listener status only and are not repeated here;
// TLSRouteListenerMixedTerminationNotSupported does not apply, since gwsim
// supports mixed Passthrough and Terminate listeners on one port.
func TestL4Conformance(t *testing.T) {
	const tls, tcp, udp = "TLS", "TCP", "UDP"
	tests := []struct {
		name     string // the upstream ConformanceTest's ShortName
		manifest string
		conds    []l4Cond
		attached map[string]int32 // "gateway#listener" → attachedRoutes
		conns    []l4Conn
		weights  *l4Weights
	}{
		{name: "TLSRouteSimpleSameNamespace", manifest: "tlsroute-simple-same-namespace.yaml",
			conds: []l4Cond{{"TLSRoute", "gateway-conformance-infra-test", "gateway-tlsroute", "Accepted", "Accepted"}},
			conns: []l4Conn{{"gateway-tlsroute", 443, tls, "abc.example.com", infra("tcp-backend:8443"), "Passthrough"}}},
		{name: "TLSRouteTerminateSimpleSameNamespace", manifest: "tlsroute-terminate-simple-same-namespace.yaml",
			conds: []l4Cond{{"TLSRoute", "tlsroute-terminated-test", "gateway-tlsroute-terminate", "Accepted", "Accepted"}},
			conns: []l4Conn{{"gateway-tlsroute-terminate", 8443, tls, "tls.example.com", infra("tcp-backend:3000"), "Terminate"}}},
		{name: "TLSRouteMixedTerminationSameNamespace", manifest: "tlsroute-mixed-termination-same-namespace.yaml",
			conds: []l4Cond{
				{"TLSRoute", "gateway-conformance-mixed-passthroughroute", "gateway-tlsroute-mixed-termination", "Accepted", "Accepted"},
				{"TLSRoute", "gateway-conformance-mixed-terminateroute", "gateway-tlsroute-mixed-termination", "Accepted", "Accepted"},
			},
			attached: map[string]int32{"gateway-tlsroute-mixed-termination#tls-terminate": 1, "gateway-tlsroute-mixed-termination#tls-passthrough": 1},
			conns: []l4Conn{
				{"gateway-tlsroute-mixed-termination", 8883, tls, "tls.example.com", infra("tcp-backend:3000"), "Terminate"},
				{"gateway-tlsroute-mixed-termination", 8883, tls, "abc.example.com", infra("tcp-backend:8443"), "Passthrough"},
			}},
		{name: "TLSRouteHostnameIntersection", manifest: "tlsroute-hostname-intersection.yaml",
			conds: []l4Cond{
				{"TLSRoute", "tlsroute-more-specific-wc-hostname-x-1", "gw-tlsroute-exact-hostname-x-1", "ResolvedRefs", "ResolvedRefs"},
				{"TLSRoute", "tlsroute-exact-hostname-x-2", "gw-tlsroute-more-specific-wc-hostname-x-2", "Accepted", "Accepted"},
				{"TLSRoute", "tlsroute-less-specific-wc-hostname-x-2", "gw-tlsroute-more-specific-wc-hostname-x-2", "Accepted", "Accepted"},
				{"TLSRoute", "tlsroute-exact-hostname-x-3", "gw-tlsroute-less-specific-wc-hostname-x-3", "Accepted", "Accepted"},
				{"TLSRoute", "tlsroute-more-specific-wc-hostname-x-3", "gw-tlsroute-less-specific-wc-hostname-x-3", "Accepted", "Accepted"},
				{"TLSRoute", "tlsroute-exact-hostname-x-4", "gw-tlsroute-empty-hostname-x-4", "Accepted", "Accepted"},
				{"TLSRoute", "tlsroute-less-specific-wc-hostname-x-4", "gw-tlsroute-empty-hostname-x-4", "Accepted", "Accepted"},
			},
			conns: []l4Conn{
				{"gw-tlsroute-exact-hostname-x-1", 443, tls, "abc.example.com", infra("tls-backend:443"), ""},
				{"gw-tlsroute-exact-hostname-x-1", 443, tls, "non.matching.com", "", ""},
				{"gw-tlsroute-more-specific-wc-hostname-x-2", 443, tls, "abc.example.com", infra("tls-backend:443"), ""},
				{"gw-tlsroute-more-specific-wc-hostname-x-2", 443, tls, "other.example.com", infra("tls-backend-2:443"), ""},
				{"gw-tlsroute-more-specific-wc-hostname-x-2", 443, tls, "non.matching.com", "", ""},
				{"gw-tlsroute-less-specific-wc-hostname-x-3", 443, tls, "abc.example.com", infra("tls-backend:443"), ""},
				{"gw-tlsroute-less-specific-wc-hostname-x-3", 443, tls, "other.example.com", infra("tls-backend-2:443"), ""},
				{"gw-tlsroute-less-specific-wc-hostname-x-3", 443, tls, "non.matching.com", "", ""},
				{"gw-tlsroute-empty-hostname-x-4", 443, tls, "abc.example.com", infra("tls-backend:443"), ""},
				{"gw-tlsroute-empty-hostname-x-4", 443, tls, "other.example.com", infra("tls-backend-2:443"), ""},
				{"gw-tlsroute-empty-hostname-x-4", 443, tls, "non.matching.org", "", ""},
			}},
		{name: "TLSRouteInvalidBackendRefNonexistent", manifest: "tlsroute-invalid-backendref-nonexistent.yaml",
			conds: []l4Cond{
				{"TLSRoute", "invalid-backend-ref-nonexistent", "gateway-tlsroute-invalid-backend-ref-nonexistent", "Accepted", "Accepted"},
				{"TLSRoute", "invalid-backend-ref-nonexistent", "gateway-tlsroute-invalid-backend-ref-nonexistent", "ResolvedRefs", "BackendNotFound"},
			},
			conns: []l4Conn{{"gateway-tlsroute-invalid-backend-ref-nonexistent", 443, tls, "example.com", "", ""}}},
		{name: "TLSRouteInvalidBackendRefUnknownKind", manifest: "tlsroute-invalid-backendref-unknown-kind.yaml",
			conds: []l4Cond{
				{"TLSRoute", "invalid-backend-ref-unknown-kind", "gateway-tlsroute-invalid-backend-ref-unknown-kind", "Accepted", "Accepted"},
				{"TLSRoute", "invalid-backend-ref-unknown-kind", "gateway-tlsroute-invalid-backend-ref-unknown-kind", "ResolvedRefs", "InvalidKind"},
			},
			conns: []l4Conn{{"gateway-tlsroute-invalid-backend-ref-unknown-kind", 443, tls, "example.com", "", ""}}},
		{name: "TLSRouteInvalidReferenceGrant", manifest: "tlsroute-invalid-reference-grant.yaml",
			conds: []l4Cond{
				{"TLSRoute", "gateway-conformance-infra-test", "gateway-tlsroute-referencegrant", "Accepted", "Accepted"},
				{"TLSRoute", "gateway-conformance-infra-test", "gateway-tlsroute-referencegrant", "ResolvedRefs", "RefNotPermitted"},
			},
			conns: []l4Conn{{"gateway-tlsroute-referencegrant", 443, tls, "abc.example.com", "", ""}}},
		{name: "TLSRouteInvalidNoMatchingListenerHostname", manifest: "tlsroute-invalid-no-matching-listener-hostname.yaml",
			conds: []l4Cond{
				{"TLSRoute", "tlsroute-hostname-mismatch-1", "gateway-tls-exact-hostname", "Accepted", "NoMatchingListenerHostname"},
				{"TLSRoute", "tlsroute-hostname-mismatch-2", "gateway-tls-wildcard-hostname", "Accepted", "NoMatchingListenerHostname"},
			},
			attached: map[string]int32{"gateway-tls-exact-hostname#tls": 0, "gateway-tls-wildcard-hostname#tls": 0}},
		{name: "TLSRouteInvalidNoMatchingListener", manifest: "tlsroute-invalid-no-matching-listener.yaml",
			conds: []l4Cond{
				{"TLSRoute", "tlsroute-not-allowed-protocol-http", "gateway-tlsroute-http-only", "Accepted", "NotAllowedByListeners"},
				{"TLSRoute", "tlsroute-not-allowed-protocol-https", "gateway-tlsroute-https-only", "Accepted", "NotAllowedByListeners"},
				{"TLSRoute", "tlsroute-no-matching-section-name", "gateway-tlsroute-tls-passthrough-only", "Accepted", "NoMatchingParent"},
			},
			attached: map[string]int32{"gateway-tlsroute-http-only#http": 0, "gateway-tlsroute-https-only#https": 0}},
		{name: "TCPRouteParentRefPortAndSectionName", manifest: "tcproute-parentref-port-and-section-name.yaml",
			conds: []l4Cond{
				{"TCPRoute", "tcp-route-by-port", "tcp-multi-listener-gateway", "Accepted", "Accepted"},
				{"TCPRoute", "tcp-route-by-section", "tcp-multi-listener-gateway", "Accepted", "Accepted"},
				{"TCPRoute", "tcp-route-by-section-and-port", "tcp-multi-listener-gateway", "Accepted", "Accepted"},
			},
			conns: []l4Conn{
				{"tcp-multi-listener-gateway", 9300, tcp, "", infra("tcp-echo-one:3000"), ""},
				{"tcp-multi-listener-gateway", 9301, tcp, "", infra("tcp-echo-two:3000"), ""},
				{"tcp-multi-listener-gateway", 9302, tcp, "", infra("tcp-echo-three:3000"), ""},
			}},
		{name: "TCPRouteParentRefAttachAll", manifest: "tcproute-parentref-attach-all.yaml",
			conds: []l4Cond{{"TCPRoute", "tcp-route-attach-all", "tcp-attach-all-gateway", "Accepted", "Accepted"}},
			conns: []l4Conn{
				{"tcp-attach-all-gateway", 9310, tcp, "", infra("tcp-echo-attach-all:3000"), ""},
				{"tcp-attach-all-gateway", 9311, tcp, "", infra("tcp-echo-attach-all:3000"), ""},
				{"tcp-attach-all-gateway", 9312, tcp, "", infra("tcp-echo-attach-all:3000"), ""},
				{"tcp-attach-all-gateway", 9313, tcp, "", infra("tcp-echo-attach-all:3000"), ""},
			}},
		{name: "TCPRouteMultipleRoutesAttachment", manifest: "tcproute-multiple-routes-attachment.yaml",
			conds: []l4Cond{
				{"TCPRoute", "tcproute-attach-older", "tcp-multi-route-attach-gateway", "Accepted", "Accepted"},
				{"TCPRoute", "tcproute-attach-newer", "tcp-multi-route-attach-gateway", "Accepted", "Accepted"},
			},
			attached: map[string]int32{"tcp-multi-route-attach-gateway#tcp": 2},
			weights: &l4Weights{l4Conn{"tcp-multi-route-attach-gateway", 9310, tcp, "", "", ""},
				map[string]int{infra("tcp-attach-backend-1:3000"): 100}}},
		{name: "TCPRouteReferenceGrant", manifest: "tcproute-reference-grant.yaml",
			conds: []l4Cond{{"TCPRoute", "tcp-reference-grant", "tcp-reference-grant-gateway", "ResolvedRefs", "ResolvedRefs"}},
			conns: []l4Conn{{"tcp-reference-grant-gateway", 9320, tcp, "", "gateway-conformance-web-backend/tcp-reference-grant-backend:3000", ""}}},
		{name: "TCPRouteInvalidCrossNamespaceBackendRef", manifest: "tcproute-invalid-cross-namespace-backend-ref.yaml",
			conds: []l4Cond{
				{"TCPRoute", "tcp-invalid-cross-namespace-backend-ref", "tcp-invalid-cross-namespace-backend-ref-gateway", "Accepted", "Accepted"},
				{"TCPRoute", "tcp-invalid-cross-namespace-backend-ref", "tcp-invalid-cross-namespace-backend-ref-gateway", "ResolvedRefs", "RefNotPermitted"},
			},
			conns: []l4Conn{{"tcp-invalid-cross-namespace-backend-ref-gateway", 9321, tcp, "", "", ""}}},
		{name: "TCPRouteInvalidBackendRefNonexistent", manifest: "tcproute-invalid-backendref-nonexistent.yaml",
			conds: []l4Cond{{"TCPRoute", "tcp-route-invalid-backend-ref-nonexistent", "tcp-gateway-invalid-backend", "ResolvedRefs", "BackendNotFound"}},
			conns: []l4Conn{{"tcp-gateway-invalid-backend", 9300, tcp, "", "", ""}}},
		{name: "TCPRouteInvalidNonTCPListener", manifest: "tcproute-invalid-non-tcp-listener.yaml",
			conds:    []l4Cond{{"TCPRoute", "tcp-route", "tcp-mixed-protocol-gateway", "Accepted", "NotAllowedByListeners"}},
			attached: map[string]int32{"tcp-mixed-protocol-gateway#only-allow-http-routes": 0}},
		{name: "TCPRouteWeightedRouting", manifest: "tcproute-weighted-routing.yaml",
			conds: []l4Cond{{"TCPRoute", "tcp-weighted-route", "tcp-weighted-gateway", "Accepted", "Accepted"}},
			weights: &l4Weights{l4Conn{"tcp-weighted-gateway", 9300, tcp, "", "", ""},
				map[string]int{infra("tcp-backend-v1:3000"): 70, infra("tcp-backend-v2:3000"): 30}}},
		{name: "UDPRoute", manifest: "udproute-simple.yaml",
			conds: []l4Cond{{"UDPRoute", "udp-coredns", "udp-gateway", "Accepted", "Accepted"}},
			conns: []l4Conn{{"udp-gateway", 5300, udp, "", infra("coredns:53/UDP"), ""}}},
		{name: "UDPRouteParentRefPortAndSectionName", manifest: "udproute-parentref-port-and-section-name.yaml",
			conds: []l4Cond{
				{"UDPRoute", "udp-route-by-port", "udp-multi-listener-gateway", "Accepted", "Accepted"},
				{"UDPRoute", "udp-route-by-section", "udp-multi-listener-gateway", "Accepted", "Accepted"},
				{"UDPRoute", "udp-route-by-section-and-port", "udp-multi-listener-gateway", "Accepted", "Accepted"},
			},
			conns: []l4Conn{
				{"udp-multi-listener-gateway", 5300, udp, "", infra("udp-echo-by-port:8080/UDP"), ""},
				{"udp-multi-listener-gateway", 5301, udp, "", infra("udp-echo-by-section:8080/UDP"), ""},
				{"udp-multi-listener-gateway", 5302, udp, "", infra("udp-echo-by-section-and-port:8080/UDP"), ""},
			}},
		{name: "UDPRouteParentRefAttachAllListeners", manifest: "udproute-parentref-attach-all-listeners.yaml",
			conds: []l4Cond{{"UDPRoute", "udp-route-attach-all", "udp-attach-all-listeners-gateway", "Accepted", "Accepted"}},
			attached: map[string]int32{"udp-attach-all-listeners-gateway#udp-1": 1, "udp-attach-all-listeners-gateway#udp-2": 1,
				"udp-attach-all-listeners-gateway#udp-3": 1},
			conns: []l4Conn{
				{"udp-attach-all-listeners-gateway", 5310, udp, "", infra("udp-echo-attach-all:8080/UDP"), ""},
				{"udp-attach-all-listeners-gateway", 5311, udp, "", infra("udp-echo-attach-all:8080/UDP"), ""},
				{"udp-attach-all-listeners-gateway", 5312, udp, "", infra("udp-echo-attach-all:8080/UDP"), ""},
			}},
		{name: "UDPRouteMultipleRoutesAttachment", manifest: "udproute-multiple-routes-attachment.yaml",
			conds: []l4Cond{
				{"UDPRoute", "udproute-attach-older", "udp-multi-route-attach-gateway", "Accepted", "Accepted"},
				{"UDPRoute", "udproute-attach-newer", "udp-multi-route-attach-gateway", "Accepted", "Accepted"},
			},
			attached: map[string]int32{"udp-multi-route-attach-gateway#udp": 2},
			weights: &l4Weights{l4Conn{"udp-multi-route-attach-gateway", 5301, udp, "", "", ""},
				map[string]int{infra("udp-attach-backend-1:8080/UDP"): 100}}},
		{name: "UDPRouteReferenceGrant", manifest: "udproute-reference-grant.yaml",
			conds: []l4Cond{{"UDPRoute", "udp-route-reference-grant", "udp-gateway-reference-grant", "ResolvedRefs", "ResolvedRefs"}},
			conns: []l4Conn{{"udp-gateway-reference-grant", 5300, udp, "", "gateway-conformance-app-backend/udp-echo-reference-grant:8080/UDP", ""}}},
		{name: "UDPRouteInvalidCrossNamespaceBackendRef", manifest: "udproute-invalid-cross-namespace-backend-ref.yaml",
			conds: []l4Cond{
				{"UDPRoute", "udp-route-invalid-cross-namespace-backend-ref", "udp-gateway-invalid-cross-namespace-backend-ref", "Accepted", "Accepted"},
				{"UDPRoute", "udp-route-invalid-cross-namespace-backend-ref", "udp-gateway-invalid-cross-namespace-backend-ref", "ResolvedRefs", "RefNotPermitted"},
			},
			conns: []l4Conn{{"udp-gateway-invalid-cross-namespace-backend-ref", 5300, udp, "", "", ""}}},
		{name: "UDPRouteInvalidBackendRefNonexistent", manifest: "udproute-invalid-backendref-nonexistent.yaml",
			conds: []l4Cond{{"UDPRoute", "udp-route-invalid-backend-ref-nonexistent", "udp-gateway-invalid-backend", "ResolvedRefs", "BackendNotFound"}},
			conns: []l4Conn{{"udp-gateway-invalid-backend", 5300, udp, "", "", ""}}},
		{name: "UDPRouteNotAllowedByListeners", manifest: "udproute-not-allowed-by-listeners.yaml",
			conds:    []l4Cond{{"UDPRoute", "udproute-not-allowed-by-listeners", "udproute-tls-only-gateway", "Accepted", "NotAllowedByListeners"}},
			attached: map[string]int32{"udproute-tls-only-gateway#tls": 0}},
		{name: "UDPRouteWeightedRouting", manifest: "udproute-weighted-routing.yaml",
			conds: []l4Cond{{"UDPRoute", "udp-weighted-route", "udp-weighted-gateway", "Accepted", "Accepted"}},
			weights: &l4Weights{l4Conn{"udp-weighted-gateway", 5300, udp, "", "", ""},
				map[string]int{infra("udp-backend-v1:8080/UDP"): 70, infra("udp-backend-v2:8080/UDP"): 30}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runL4Manifest(t, tt.manifest)
			for _, c := range tt.conds {
				checkL4Cond(t, out, c)
			}
			for key, want := range tt.attached {
				if got := attachedRoutes(t, out, key); got != want {
					t.Errorf("%s: attachedRoutes = %d, want %d", key, got, want)
				}
			}
			for _, c := range tt.conns {
				res := evaluate.EvaluateConnection(out.IR, connection(c, 0))
				got := ""
				if res.Outcome == evaluate.Forwarded {
					got = res.Backend.Cluster
				}
				if got != c.cluster || (c.mode != "" && res.TLSMode != c.mode) {
					t.Errorf("%s %d/%s SNI %q: got %s %q mode %q (%s), want %q mode %q",
						c.gateway, c.port, c.protocol, c.sni, res.Outcome, got, res.TLSMode, res.Reason, c.cluster, c.mode)
				}
			}
			if w := tt.weights; w != nil {
				got := map[string]int{}
				for seed := range int64(100) {
					if res := evaluate.EvaluateConnection(out.IR, connection(w.conn, seed)); res.Outcome == evaluate.Forwarded {
						got[res.Backend.Cluster]++
					}
				}
				if diff := cmp.Diff(w.want, got); diff != "" {
					t.Errorf("connections per backend over 100 seeds (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func connection(c l4Conn, seed int64) evaluate.Connection {
	return evaluate.Connection{Gateway: infra(c.gateway), Port: c.port, Protocol: c.protocol, SNI: c.sni, Seed: seed}
}

// runL4Manifest runs gwsim's pipeline over base.yaml and one upstream
// manifest, as the CLI does.
func runL4Manifest(t *testing.T, manifest string) translate.Output {
	t.Helper()
	dir := filepath.Join("testdata", "l4-conformance")
	loaded := load.Load(load.Options{Paths: []string{filepath.Join(dir, "base.yaml"), filepath.Join(dir, manifest)}})
	if len(loaded.Errors) > 0 {
		t.Fatalf("loading %s: %v", manifest, loaded.Errors)
	}
	res, err := offline.Run(context.Background(), loaded.Objects, loaded.Sources, offline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Output
}

func checkL4Cond(t *testing.T, out translate.Output, c l4Cond) {
	t.Helper()
	for _, p := range out.Status.Routes[diag.ObjectRef{Kind: c.kind, Namespace: l4NS, Name: c.route}] {
		if string(p.ParentRef.Name) != c.gateway {
			continue
		}
		for _, cond := range p.Conditions {
			if cond.Type != c.condType {
				continue
			}
			status := metav1.ConditionFalse
			if c.reason == c.condType {
				status = metav1.ConditionTrue
			}
			if cond.Reason != c.reason || cond.Status != status {
				t.Errorf("%s %s on %s: %s=%s (%s), want %s (%s): %s", c.kind, c.route, c.gateway, c.condType, cond.Status, cond.Reason, status, c.reason, cond.Message)
			}
			return
		}
	}
	t.Errorf("%s %s has no %s condition for parent %s", c.kind, c.route, c.condType, c.gateway)
}

// attachedRoutes returns the attachedRoutes of "gateway#listener".
func attachedRoutes(t *testing.T, out translate.Output, key string) int32 {
	t.Helper()
	gw, listener, _ := strings.Cut(key, "#")
	for _, l := range out.Status.Gateways[types.NamespacedName{Namespace: l4NS, Name: gw}].Listeners {
		if string(l.Name) == listener {
			return l.AttachedRoutes
		}
	}
	t.Fatalf("no listener status for %s", key)
	return 0
}
