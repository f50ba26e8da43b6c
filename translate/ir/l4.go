package ir

// L4Route is one TLSRoute, TCPRoute or UDPRoute attached to one Gateway
// listener. These kinds match a connection, not a request: a TLSRoute by the
// SNI of the client's ClientHello, a TCPRoute or UDPRoute by the port alone.
// They have no filters and at most one rule, so a route is a match and
// weighted backends.
type L4Route struct {
	// Listener is the Gateway listener (spec.listeners[].name) the route is
	// attached to; listener isolation picks it before any route is looked at.
	Listener string `json:"listener"`
	// SNI is the server name a TLSRoute matches on this listener: the
	// intersection of the route's and the listener's hostnames, exact or
	// wildcard, or "*" when neither names one. Empty for TCP and UDP.
	SNI string `json:"sni,omitempty"`
	// Backends are every backendRef, invalid ones marked and keeping their
	// weight: the spec rejects that share of connections (drops that share
	// of UDP packets) instead of sending it elsewhere.
	Backends []WeightedBackend `json:"backends,omitempty"`
	// Reject, when set, says why every connection is rejected: the rule has
	// no backendRefs, or none is valid with a weight above 0.
	Reject string `json:"reject,omitempty"`
	// SupersededBy is set when another route on the same listener (and, for
	// TLS, the same SNI) takes every connection this one would match: the
	// oldest route wins, then the first by namespace/name. The spec keeps
	// both routes Accepted, so only the IR shows which one is live.
	SupersededBy *Origin `json:"supersededBy,omitempty"`
	Origin       Origin  `json:"origin"`
}
