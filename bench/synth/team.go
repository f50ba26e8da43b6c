package synth

import "fmt"

// team writes one namespace's file: the Namespace, the ReferenceGrant that
// lets the previous namespace's routes reach its Services, and each route
// followed by its Service and EndpointSlice.
func (w *writer) team(p *plan, ns int) []byte {
	name := namespaceName(ns)
	w.namespace(name)
	if len(p.byNS) > 1 {
		w.referenceGrant(name, namespaceName((ns+len(p.byNS)-1)%len(p.byNS)))
	}
	for _, r := range p.byNS[ns] {
		switch r.kind {
		case httpRoute:
			w.httpRoute(r)
		case grpcRoute:
			w.grpcRoute(r, p.grpcSection)
		case tlsRoute:
			w.tlsRoute(r)
		}
		w.service(r)
		w.endpointSlice(r)
	}
	return w.take()
}

func (w *writer) referenceGrant(ns, from string) {
	w.doc(gatewayGroupVersion, "ReferenceGrant")
	fmt.Fprintf(&w.buf, `metadata:
  name: from-%s
  namespace: %s
spec:
  from:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    namespace: %s
  - group: gateway.networking.k8s.io
    kind: GRPCRoute
    namespace: %s
  to:
  - group: ""
    kind: Service
`, from, ns, from, from)
}

// meta writes a route's metadata, parentRefs and hostnames.
func (w *writer) meta(r *route, sectionName string) {
	ns := namespaceName(r.ns)
	fmt.Fprintf(&w.buf, `metadata:
  name: %s
  namespace: %s
  labels:
    app.kubernetes.io/name: %s
    team: %s
spec:
  parentRefs:
  - name: %s
    namespace: %s
`, r.name, ns, r.name, ns, gatewayName(r.gateway), infraNamespace)
	if sectionName != "" {
		fmt.Fprintf(&w.buf, "    sectionName: %s\n", sectionName)
	}
	fmt.Fprintf(&w.buf, "  hostnames:\n  - %s.%s.bench.example.com\n  rules:\n", r.name, ns)
}

// httpRoute attaches to every HTTP and HTTPS listener of its Gateway: one
// rule matches a path prefix and a header, sets a header and splits by
// weight; a second rule sends the rest of the prefix to the own backend.
func (w *writer) httpRoute(r *route) {
	w.doc(gatewayGroupVersion, "HTTPRoute")
	w.meta(r, "")
	fmt.Fprintf(&w.buf, `  - matches:
    - path:
        type: PathPrefix
        value: /%s/v%d
      headers:
      - name: x-tenant
        value: t-%d
`, r.word, r.version, r.tenant)
	w.headerFilter(r)
	w.backends(r, inRule, true)
	fmt.Fprintf(&w.buf, `  - matches:
    - path:
        type: PathPrefix
        value: /%s
`, r.word)
	w.backends(r, inRule, false)
}

// grpcRoute attaches to the listener named section (HTTPS, or HTTP without
// TLS): a method and header match with a header filter and a split, and a
// catch-all rule.
func (w *writer) grpcRoute(r *route, section string) {
	w.doc(gatewayGroupVersion, "GRPCRoute")
	w.meta(r, section)
	fmt.Fprintf(&w.buf, `  - matches:
    - method:
        service: bench.%s.v%d.Service
        method: Get
      headers:
      - name: x-tenant
        value: t-%d
`, r.word, r.version, r.tenant)
	w.headerFilter(r)
	w.backends(r, inRule, true)
	w.backends(r, newRule, false)
}

// tlsRoute attaches to the passthrough listener with one backend.
func (w *writer) tlsRoute(r *route) {
	w.doc(gatewayGroupVersion, "TLSRoute")
	w.meta(r, "tls")
	w.backends(r, newRule, false)
}

func (w *writer) headerFilter(r *route) {
	fmt.Fprintf(&w.buf, `    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        set:
        - name: x-route
          value: %s
`, r.name)
}

// Heads of a backendRefs field: inside a rule that has matches, or as the
// first field of a new rule.
const (
	inRule  = "    backendRefs:\n"
	newRule = "  - backendRefs:\n"
)

// backends writes a rule's backendRefs after head: the own Service alone,
// or with split, the own Service and r.other weighted.
func (w *writer) backends(r *route, head string, split bool) {
	w.buf.WriteString(head)
	if !split || r.other == nil {
		fmt.Fprintf(&w.buf, "    - name: %s\n      port: 80\n", r.name)
		return
	}
	fmt.Fprintf(&w.buf, "    - name: %s\n      port: 80\n      weight: %d\n", r.name, r.weight)
	fmt.Fprintf(&w.buf, "    - name: %s\n", r.other.name)
	if r.other.ns != r.ns {
		fmt.Fprintf(&w.buf, "      namespace: %s\n", namespaceName(r.other.ns))
	}
	fmt.Fprintf(&w.buf, "      port: 80\n      weight: %d\n", 100-r.weight)
}

func (w *writer) service(r *route) {
	w.doc("v1", "Service")
	fmt.Fprintf(&w.buf, `metadata:
  name: %s
  namespace: %s
spec:
  selector:
    app.kubernetes.io/name: %s
  ports:
  - name: http
    protocol: TCP
    port: 80
    targetPort: 8080
`, r.name, namespaceName(r.ns), r.name)
}

// endpointSlice gives the Service two ready endpoints with addresses unique
// across the set.
func (w *writer) endpointSlice(r *route) {
	w.doc("discovery.k8s.io/v1", "EndpointSlice")
	fmt.Fprintf(&w.buf, `metadata:
  name: %s-1
  namespace: %s
  labels:
    kubernetes.io/service-name: %s
addressType: IPv4
ports:
- name: http
  protocol: TCP
  port: 8080
endpoints:
`, r.name, namespaceName(r.ns), r.name)
	for e := range 2 {
		fmt.Fprintf(&w.buf, "- addresses:\n  - %s\n  conditions:\n    ready: true\n", address(2*r.index+e))
	}
}

// address is the n-th address of 10.0.0.0/8, counting from 10.0.0.1.
func address(n int) string {
	n++
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}
