package translate_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/translatetest"
)

// singlePortImport is a ServiceImport with one port, which a backendRef
// without a port takes.
const singlePortImport = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: single, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{name: grpc, protocol: TCP, port: 7070}]`

// serviceImportWorld is a Gateway, the ServiceImport shop/store exported
// by two clusters (named port http 8080 over TCP; a UDP port 53 named
// dns; a port 9000 of an implementation's own appProtocol), its
// EndpointSlices, and a Service shop/store of the same name (as a cluster
// that exports it has) with EndpointSlices of its own.
const serviceImportWorld = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gw}
spec: {controllerName: gwsim.dev/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: gw
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
  - {name: dns, protocol: UDP, port: 53, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: store, namespace: shop}
spec:
  type: ClusterSetIP
  ips: [10.42.0.7]
  ports:
  - {name: http, protocol: TCP, port: 8080}
  - {name: dns, protocol: UDP, port: 53}
  - {name: custom, protocol: TCP, port: 9000, appProtocol: example.com/custom}
status:
  clusters: [{cluster: east}, {cluster: west}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: store-east
  namespace: shop
  labels: {multicluster.kubernetes.io/service-name: store, multicluster.kubernetes.io/source-cluster: east}
addressType: IPv4
ports: [{name: http, port: 8081}]
endpoints: [{addresses: [10.1.0.5]}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: store-west
  namespace: shop
  labels: {multicluster.kubernetes.io/service-name: store, multicluster.kubernetes.io/source-cluster: west}
addressType: IPv4
ports: [{name: http, port: 8081}]
endpoints: [{addresses: [10.2.0.9]}, {addresses: [10.2.0.10], conditions: {ready: false}}]
---
apiVersion: v1
kind: Service
metadata: {name: store, namespace: shop}
spec:
  ports: [{name: http, port: 8080}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: store-local
  namespace: shop
  labels: {kubernetes.io/service-name: store}
addressType: IPv4
ports: [{name: http, port: 8081}]
endpoints: [{addresses: [10.0.0.1]}]`

// grantImports lets HTTPRoutes of namespace web use ServiceImports of shop.
const grantImports = `apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata: {name: web-imports, namespace: shop}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: web}]
  to: [{group: multicluster.x-k8s.io, kind: ServiceImport}]`

// grantServices lets HTTPRoutes of namespace web use Services of shop
// only: it does not cover the ServiceImport of the same name.
const grantServices = `apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata: {name: web-services, namespace: shop}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: web}]
  to: [{group: "", kind: Service}]`

// importRoute is a route of kind in namespace ns attached to infra/edge
// with one rule that sends everything to backendRef.
func importRoute(kind, ns, backendRef string) string {
	return `apiVersion: gateway.networking.k8s.io/v1
kind: ` + kind + `
metadata: {name: r, namespace: ` + ns + `}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:
  - backendRefs: [` + backendRef + `]`
}

const storeImport = `{group: multicluster.x-k8s.io, kind: ServiceImport, name: store, namespace: shop`

// TestServiceImportBackends checks the backendRef rules for ServiceImports
// (GEP-1748): they are those of Services, with the ServiceImport's own
// ports, grants, EndpointSlices and open-world assumption, and a cluster
// of their own next to the Service of the same name.
func TestServiceImportBackends(t *testing.T) {
	importCluster := ir.Cluster{
		Name: "multicluster.x-k8s.io/ServiceImport/shop/store:8080", Kind: "multicluster.x-k8s.io/ServiceImport",
		Service: "shop/store", Address: "store.shop.svc.clusterset.local", Port: 8080,
		Endpoints: []ir.Endpoint{{Address: "10.1.0.5", Port: 8081}, {Address: "10.2.0.9", Port: 8081}},
	}
	openWorld := translate.OpenWorld{AllKinds: true, Complete: map[translate.KindNamespace]bool{
		{Kind: "multicluster.x-k8s.io/ServiceImport", Namespace: "shop"}: true,
	}}
	tests := []struct {
		name  string
		route string
		extra []string
		world translate.OpenWorld
		// want is the cluster the backend becomes, or wantReason and a
		// fragment of the message of the route's ResolvedRefs=False.
		want       *ir.Cluster
		wantReason gwv1.RouteConditionReason
		wantMsg    string
		// wantAssumed names the object an Assumed finding lists.
		wantAssumed string
	}{
		{name: "a port of the ServiceImport, endpoints from its slices across clusters",
			route: importRoute("HTTPRoute", "shop", storeImport+`, port: 8080}`), want: &importCluster},
		{name: "no port, several to derive it from", route: importRoute("HTTPRoute", "shop", storeImport+`}`),
			wantReason: gwv1.RouteReasonBackendNotFound, wantMsg: "backendRef to ServiceImport shop/store has no port, and ServiceImport shop/store has 3 ports"},
		{name: "no port, derived from the ServiceImport's only port",
			route: importRoute("HTTPRoute", "shop", `{group: multicluster.x-k8s.io, kind: ServiceImport, name: single}`),
			extra: []string{singlePortImport},
			want: &ir.Cluster{Name: "multicluster.x-k8s.io/ServiceImport/shop/single:7070", Kind: "multicluster.x-k8s.io/ServiceImport",
				Service: "shop/single", Address: "single.shop.svc.clusterset.local", Port: 7070}},
		{name: "no port, missing where the input holds none: assumed with one port gwsim cannot number", world: openWorld,
			route: importRoute("HTTPRoute", "web", `{group: multicluster.x-k8s.io, kind: ServiceImport, name: api}`),
			want: &ir.Cluster{Name: "multicluster.x-k8s.io/ServiceImport/web/api:0", Kind: "multicluster.x-k8s.io/ServiceImport",
				Service: "web/api", Address: "api.web.svc.clusterset.local", Port: 0},
			wantAssumed: "multicluster.x-k8s.io/ServiceImport web/api"},
		{name: "a port the ServiceImport does not have", route: importRoute("HTTPRoute", "shop", storeImport+`, port: 8443}`),
			wantReason: gwv1.RouteReasonBackendNotFound, wantMsg: "ServiceImport shop/store has no port 8443"},
		{name: "a UDP port for an HTTPRoute", route: importRoute("HTTPRoute", "shop", storeImport+`, port: 53}`),
			wantReason: gwv1.RouteReasonBackendNotFound, wantMsg: "ServiceImport shop/store has no port 53"},
		{name: "a UDP port for a UDPRoute: the slices list no endpoint for it", route: importRoute("UDPRoute", "shop", storeImport+`, port: 53}`),
			want: &ir.Cluster{Name: "multicluster.x-k8s.io/ServiceImport/shop/store:53/UDP", Kind: "multicluster.x-k8s.io/ServiceImport",
				Service: "shop/store", Address: "store.shop.svc.clusterset.local", Port: 53, NoReadyEndpoints: true}},
		{name: "an appProtocol gwsim cannot speak", route: importRoute("HTTPRoute", "shop", storeImport+`, port: 9000}`),
			wantReason: gwv1.RouteReasonUnsupportedProtocol, wantMsg: "ServiceImport shop/store port 9000"},
		{name: "another namespace without a grant", route: importRoute("HTTPRoute", "web", storeImport+`, port: 8080}`),
			wantReason: gwv1.RouteReasonRefNotPermitted, wantMsg: "ServiceImport shop/store is in another namespace and no ReferenceGrant in shop allows HTTPRoute from web"},
		{name: "a grant for Services does not cover ServiceImports", route: importRoute("HTTPRoute", "web", storeImport+`, port: 8080}`),
			extra: []string{grantServices}, wantReason: gwv1.RouteReasonRefNotPermitted, wantMsg: "no ReferenceGrant in shop"},
		{name: "a grant for ServiceImports", route: importRoute("HTTPRoute", "web", storeImport+`, port: 8080}`),
			extra: []string{grantImports}, want: &importCluster},
		{name: "missing, closed world", route: importRoute("HTTPRoute", "shop", `{group: multicluster.x-k8s.io, kind: ServiceImport, name: stor, port: 8080}`),
			wantReason: gwv1.RouteReasonBackendNotFound, wantMsg: "ServiceImport shop/stor does not exist"},
		{name: "missing where the input holds ServiceImports", world: openWorld,
			route:      importRoute("HTTPRoute", "shop", `{group: multicluster.x-k8s.io, kind: ServiceImport, name: stor, port: 8080}`),
			wantReason: gwv1.RouteReasonBackendNotFound, wantMsg: "ServiceImport shop/stor does not exist"},
		{name: "missing where the input holds none: assumed", world: openWorld,
			route: importRoute("HTTPRoute", "web", `{group: multicluster.x-k8s.io, kind: ServiceImport, name: api, port: 8080}`),
			want: &ir.Cluster{Name: "multicluster.x-k8s.io/ServiceImport/web/api:8080", Kind: "multicluster.x-k8s.io/ServiceImport",
				Service: "web/api", Address: "api.web.svc.clusterset.local", Port: 8080},
			wantAssumed: "multicluster.x-k8s.io/ServiceImport web/api"},
		{name: "the Service of the same name keeps its own cluster and endpoints",
			route: importRoute("HTTPRoute", "shop", `{name: store, port: 8080}`),
			want:  &ir.Cluster{Name: "shop/store:8080", Service: "shop/store", Port: 8080, Endpoints: []ir.Endpoint{{Address: "10.0.0.1", Port: 8081}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs := strings.Join(append([]string{serviceImportWorld, tt.route}, tt.extra...), "\n---\n")
			in, _ := translatetest.Decode(t, "in.yaml", docs)
			out := translate.Translate(in, translate.Options{OpenWorld: tt.world})
			if len(out.IR.Gateways) != 1 {
				t.Fatalf("IR has %d Gateways, want 1", len(out.IR.Gateways))
			}
			kind := strings.TrimPrefix(strings.SplitN(tt.route, "\n", 3)[1], "kind: ")
			parents := out.Status.Routes[diag.ObjectRef{Kind: kind, Namespace: routeNamespace(tt.route), Name: "r"}]
			if len(parents) != 1 {
				t.Fatalf("route has %d parent statuses, want 1", len(parents))
			}
			refs := findCondition(parents[0].Conditions, string(gwv1.RouteConditionResolvedRefs))
			if tt.want != nil {
				if refs == nil || refs.Status != metav1.ConditionTrue {
					t.Fatalf("ResolvedRefs = %+v, want True", refs)
				}
				if diff := cmp.Diff([]ir.Cluster{*tt.want}, out.IR.Gateways[0].Clusters); diff != "" {
					t.Errorf("clusters (-want +got):\n%s", diff)
				}
			} else if refs == nil || refs.Reason != string(tt.wantReason) || !strings.Contains(refs.Message, tt.wantMsg) {
				t.Errorf("ResolvedRefs = %+v, want False/%s with %q", refs, tt.wantReason, tt.wantMsg)
			}
			var assumed []string
			for _, f := range out.Findings {
				if f.Reason == diag.ReasonAssumedMissing {
					assumed = append(assumed, f.Object.Kind+" "+f.Object.Namespace+"/"+f.Object.Name)
				}
				if f.Reason == diag.ReasonExtensionNotSimulated {
					t.Errorf("a ServiceImport is simulated, yet: %s", f.Message)
				}
			}
			if want := strings.Fields(tt.wantAssumed); len(want) > 0 || len(assumed) > 0 {
				if len(assumed) != 1 || assumed[0] != tt.wantAssumed {
					t.Errorf("assumed %q, want %q", assumed, tt.wantAssumed)
				}
			}
		})
	}
}

func routeNamespace(route string) string {
	_, rest, _ := strings.Cut(route, "namespace: ")
	ns, _, _ := strings.Cut(rest, "}")
	return ns
}

func findCondition(cs []metav1.Condition, typ string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == typ {
			return &cs[i]
		}
	}
	return nil
}

// TestBackendTLSPolicyOnServiceImport checks that a BackendTLSPolicy may
// target a ServiceImport (group multicluster.x-k8s.io): it applies to the
// ServiceImport's clusters and not to those of the Service of the same
// name, which a policy of its own covers, and a sectionName must name one
// of the ServiceImport's ports.
func TestBackendTLSPolicyOnServiceImport(t *testing.T) {
	policies := `apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: import-tls, namespace: shop}
spec:
  targetRefs: [{group: multicluster.x-k8s.io, kind: ServiceImport, name: store, sectionName: http}]
  validation: {wellKnownCACertificates: System, hostname: store.shop.svc.clusterset.local}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: service-tls, namespace: shop}
spec:
  targetRefs: [{group: "", kind: Service, name: store}]
  validation: {wellKnownCACertificates: System, hostname: store.shop.svc.cluster.local}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: wrong-port, namespace: shop}
spec:
  targetRefs: [{group: multicluster.x-k8s.io, kind: ServiceImport, name: store, sectionName: https}]
  validation: {wellKnownCACertificates: System, hostname: store.example}`
	route := importRoute("HTTPRoute", "shop", `{name: store, port: 8080}, `+storeImport+`, port: 8080}`)
	in, _ := translatetest.Decode(t, "in.yaml", strings.Join([]string{serviceImportWorld, route, policies}, "\n---\n"))
	out := translate.Translate(in, translate.Options{})
	sni := map[string]string{}
	for _, c := range out.IR.Gateways[0].Clusters {
		if c.TLS != nil {
			sni[c.Name] = c.TLS.Policy + " " + c.TLS.SNI
		}
	}
	want := map[string]string{
		"shop/store:8080": "shop/service-tls store.shop.svc.cluster.local",
		"multicluster.x-k8s.io/ServiceImport/shop/store:8080": "shop/import-tls store.shop.svc.clusterset.local",
	}
	if diff := cmp.Diff(want, sni); diff != "" {
		t.Errorf("TLS per cluster (-want +got):\n%s", diff)
	}
	ancestors := out.Status.BackendTLSPolicies[keyOf("shop", "import-tls")]
	if len(ancestors) != 1 {
		t.Fatalf("import-tls has %d ancestors, want 1 (the Gateway)", len(ancestors))
	}
	accepted := findCondition(ancestors[0].Conditions, string(gwv1.PolicyConditionAccepted))
	if accepted == nil || accepted.Status != metav1.ConditionTrue || accepted.Message != `accepted for port "http" of ServiceImport shop/store` {
		t.Errorf("import-tls Accepted = %+v", accepted)
	}
	var notFound []string
	for _, f := range out.Findings {
		if f.Reason == string(gwv1.PolicyReasonTargetNotFound) {
			notFound = append(notFound, f.Object.Name+": "+f.Message)
		}
	}
	if diff := cmp.Diff([]string{`wrong-port: ServiceImport shop/store has no port named "https"`}, notFound); diff != "" {
		t.Errorf("TargetNotFound findings (-want +got):\n%s", diff)
	}
}

func keyOf(ns, name string) types.NamespacedName {
	return types.NamespacedName{Namespace: ns, Name: name}
}

// TestBackendTLSPolicyOnServiceImportNotReached: a policy on a ServiceImport
// reaches a Gateway only through the ServiceImport's clusters, not through
// an implementation's own backend that happens to share its namespace and
// name.
func TestBackendTLSPolicyOnServiceImportNotReached(t *testing.T) {
	policy := `apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: import-tls, namespace: shop}
spec:
  targetRefs: [{group: multicluster.x-k8s.io, kind: ServiceImport, name: store}]
  validation: {wellKnownCACertificates: System, hostname: store.shop.svc.clusterset.local}`
	route := importRoute("HTTPRoute", "shop", `{group: gateway.envoyproxy.io, kind: Backend, name: store, port: 8080}`)
	in, _ := translatetest.Decode(t, "in.yaml", strings.Join([]string{serviceImportWorld, route, policy}, "\n---\n"))
	in.OtherObjects = []translate.OtherObject{{Group: "gateway.envoyproxy.io", Kind: "Backend", Namespace: "shop", Name: "store"}}
	out := translate.Translate(in, translate.Options{})
	if cs := out.IR.Gateways[0].Clusters; len(cs) != 1 || cs[0].Kind != "gateway.envoyproxy.io/Backend" || cs[0].TLS != nil {
		t.Fatalf("clusters = %+v, want the Backend's alone, without TLS", cs)
	}
	if a, ok := out.Status.BackendTLSPolicies[keyOf("shop", "import-tls")]; ok {
		t.Errorf("import-tls has ancestors %+v, though no Gateway routes to the ServiceImport", a)
	}
}
