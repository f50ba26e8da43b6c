package translate_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/graph"
	"github.com/gwsim/gwsim/translate/translatetest"
)

const graphYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gwsim}
spec: {controllerName: gwsim.dev/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gwsim
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs:
    - {name: pay, namespace: payments, port: 80}
    - {name: gone, port: 80}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: lost, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: https}]
  rules:
  - backendRefs: [{name: pay, namespace: payments, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: allow-shop, namespace: payments}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]
  to: [{group: "", kind: Service}]
---
apiVersion: v1
kind: Service
metadata: {name: pay, namespace: payments}
spec:
  ports: [{port: 80}]`

// TestBuildGraph checks the relations the graph draws from the
// controller's results: a listener serving a route, a backend that does
// not resolve (by its reference), the grant that permits a cross-namespace
// backend, and a route kept off a listener that does not exist, drawn from
// its Gateway with the condition that says so.
func TestBuildGraph(t *testing.T) {
	in, _ := translatetest.Decode(t, "graph.yaml", graphYAML)
	g := translate.BuildGraph(in, translate.Translate(in, translate.Options{}))
	want := []graph.Edge{
		{From: "Gateway/infra/gw", To: "HTTPRoute/shop/lost", Kind: graph.EdgeAttach, Problem: "Accepted=False (NoMatchingParent)"},
		{From: "Gateway/infra/gw", To: "Listener/infra/gw/http", Kind: graph.EdgeListener},
		{From: "HTTPRoute/shop/shop", To: "Backend/payments/pay:80", Kind: graph.EdgeBackend},
		{From: "HTTPRoute/shop/shop", To: "Backend/shop/gone:80", Kind: graph.EdgeBackend, Problem: "BackendNotFound"},
		{From: "Listener/infra/gw/http", To: "HTTPRoute/shop/shop", Kind: graph.EdgeAttach, Problem: "ResolvedRefs=False (BackendNotFound)"},
		{From: "ReferenceGrant/payments/allow-shop", To: "Backend/payments/pay:80", Kind: graph.EdgeGrant, Label: "permits HTTPRoute from shop"},
	}
	if diff := cmp.Diff(want, g.Edges); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
	for _, e := range g.Edges {
		for _, id := range []string{e.From, e.To} {
			if !slices.ContainsFunc(g.Nodes, func(n graph.Node) bool { return n.ID == id }) {
				t.Errorf("edge %s -> %s: no node %s", e.From, e.To, id)
			}
		}
	}
}
