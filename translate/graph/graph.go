// Package graph is the shape of a set of Gateway API objects as the
// controller resolved it: Gateways, their listeners (and ListenerSets), the
// routes attached to them, the backends the routes forward to, and the
// BackendTLSPolicies and ReferenceGrants that bear on those backends. It is
// plain data, built by translate.BuildGraph and drawn by renderers that
// add nothing to it: every node, edge and problem comes from the
// controller's own results.
package graph

// Graph is every node and edge, nodes sorted by ID and edges by From, then
// To, so that the same manifests always draw the same picture.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Node kinds besides the route kinds (HTTPRoute, GRPCRoute, TLSRoute,
// TCPRoute, UDPRoute), which are their own.
const (
	KindGateway          = "Gateway"
	KindListener         = "Listener"
	KindListenerSet      = "ListenerSet"
	KindBackend          = "Backend"
	KindBackendTLSPolicy = "BackendTLSPolicy"
	KindReferenceGrant   = "ReferenceGrant"
)

// Node is one object, or one listener of a Gateway or ListenerSet.
type Node struct {
	// ID is unique in the graph: the kind and the name, a listener's
	// prefixed with its Gateway's.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Name is "namespace/name"; a listener's own name; a backend's
	// cluster ("namespace/service:port"), or its reference as written when
	// it does not resolve.
	Name string `json:"name"`
	// Detail is a listener's "port/protocol" and hostname.
	Detail string `json:"detail,omitempty"`
	// Problem, when set, is why the object itself is unhealthy, as
	// "Type=Status (Reason)" of its telling condition.
	Problem string `json:"problem,omitempty"`
}

// Edge kinds.
const (
	// EdgeListener joins a Gateway to its listener or ListenerSet, and a
	// ListenerSet to its listener.
	EdgeListener = "listener"
	// EdgeAttach joins a listener (or a Gateway or ListenerSet, when the
	// route is attached to none of its listeners) to a route.
	EdgeAttach = "attach"
	// EdgeBackend joins a route to a backend it forwards to.
	EdgeBackend = "backend"
	// EdgePolicy joins a BackendTLSPolicy to a backend it applies to,
	// and an Envoy Gateway policy to the Gateway, listener, ListenerSet or
	// route it targets (labelled with the rule for a route rule, and
	// marked with the condition when it is refused there).
	EdgePolicy = "policy"
	// EdgeGrant joins a ReferenceGrant to a backend in its namespace
	// that a route in another namespace may use because of it.
	EdgeGrant = "grant"
)

// Edge is one relation between two nodes.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	// Label says more about the relation: which routes a grant permits.
	Label string `json:"label,omitempty"`
	// Problem, when set, marks the edge unhealthy and says why: the
	// condition that keeps a route off a listener, a listener's own
	// problem, a backend's ResolvedRefs reason.
	Problem string `json:"problem,omitempty"`
}
