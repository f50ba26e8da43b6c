package evaluate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// Connection is one client connection, or one UDP flow, in the terms that
// TLSRoute, TCPRoute and UDPRoute routing cares about.
type Connection struct {
	// Gateway, when set ("namespace/name"), restricts the evaluation to it.
	Gateway string
	Port    int32
	// Protocol is what the client sends: "TCP" (a plain stream), "TLS" (a
	// stream that opens with a ClientHello) or "UDP".
	Protocol string
	// SNI is the server name of the ClientHello; empty when the client sends
	// none. Only TLS connections carry one.
	SNI string
	// Seed picks among weighted backends deterministically, as Request.Seed.
	Seed int64
	// ClientCertificate is what the client's certificate proved, for a
	// listener that validates client certificates; nil assumes one that
	// verifies.
	ClientCertificate *ClientCertificate
}

const (
	// Forwarded means an L4 route took the connection and a valid backend
	// was chosen.
	Forwarded Outcome = "Forwarded"
	// Rejected means an L4 route took the connection but rejects it: the
	// backend chosen for it is invalid, or the route has none to offer.
	Rejected Outcome = "Rejected"
	// HTTPListener means the listener that takes the connection is HTTP or
	// HTTPS: its requests are routed by Evaluate, not here.
	HTTPListener Outcome = "HTTPListener"
)

// ConnectionResult is what happened to a connection.
type ConnectionResult struct {
	Outcome  Outcome
	Gateway  string
	Listener string
	// TLSMode is Passthrough or Terminate when a TLS listener took the
	// connection: whether the backend sees the client's TLS or plain bytes.
	TLSMode string
	// ClientValidation is set when the listener asks the client for a
	// certificate: the CA bundles it must verify against, and the mode.
	ClientValidation *ir.FrontendValidation
	// Certificates are the Secrets ("namespace/name") the listener serves
	// its certificate from, when it terminates TLS.
	Certificates []string
	Route        *ir.L4Route
	// Backend is the backend chosen by the seed; it is set for Rejected too
	// when the chosen backend is an invalid one. Cluster is its cluster.
	Backend *ir.WeightedBackend
	Cluster *ir.Cluster
	// Reason says why for every outcome but Forwarded.
	Reason string
}

// EvaluateConnection runs c through model as a data plane would: the
// Gateway listening on c's port for c's transport; the listener (a TCP or
// UDP listener takes every connection on its port; among TLS listeners,
// listener isolation picks the most specific hostname covering the SNI); the
// route (the most specific SNI on a TLS listener, the live route on a TCP or
// UDP one); then a backend by weight. A connection no route takes, or whose
// chosen backend is invalid, is rejected, as the spec requires.
func EvaluateConnection(model ir.IR, c Connection) ConnectionResult {
	res, _, _ := evaluateConnection(model, c)
	return res
}

// evaluateConnection is EvaluateConnection, which also returns the port
// and the listener that took the connection (nil where it stopped before).
func evaluateConnection(model ir.IR, c Connection) (ConnectionResult, *ir.Listener, *ir.GatewayListener) {
	gw, port := findL4Port(model, c)
	if port == nil {
		return ConnectionResult{Outcome: NoGateway, Reason: fmt.Sprintf("no Gateway listens on %d/%s", c.Port, transport(c.Protocol))}, nil, nil
	}
	res := ConnectionResult{Gateway: gw.Name}
	l, why := selectL4Listener(port, c)
	if l == nil {
		res.Outcome, res.Reason = NoListener, why
		return res, port, nil
	}
	res.Listener = l.Name
	t := tlsOf(port, l.Name)
	if t != nil {
		res.TLSMode, res.ClientValidation = t.Mode, t.FrontendValidation
		if t.Mode != string(gwv1.TLSModePassthrough) {
			res.Certificates = t.Certificates
		}
	}
	if c.Protocol == "TLS" {
		if why := handshake(l, t, c.ClientCertificate); why != "" {
			res.Outcome, res.Reason = ConnectionFailed, why
			return res, port, l
		}
	}
	switch l.Protocol {
	case "HTTP", "HTTPS":
		res.Outcome, res.Reason = HTTPListener, fmt.Sprintf("listener %s is %s: requests are routed by HTTP rules", l.Name, l.Protocol)
		return res, port, l
	}
	routeConnection(&res, gw, port, l, c)
	return res, port, l
}

// routeConnection picks the L4 route of listener l and its backend.
func routeConnection(res *ConnectionResult, gw *ir.Gateway, port *ir.Listener, l *ir.GatewayListener, c Connection) {
	res.Route = findL4Route(port, l, c.SNI)
	if res.Route == nil {
		res.Outcome, res.Reason = RouteNotFound, fmt.Sprintf("listener %s has no route for this connection; it is rejected", l.Name)
		if l.Protocol == "TLS" {
			res.Reason = fmt.Sprintf("listener %s has no route for SNI %q; the connection is rejected", l.Name, c.SNI)
		}
		return
	}
	if res.Route.Reject != "" {
		res.Outcome, res.Reason = Rejected, res.Route.Reject
		return
	}
	res.Backend = pick(res.Route.Backends, c.Seed)
	switch {
	case res.Backend == nil:
		res.Outcome, res.Reason = Rejected, "no backend with a weight above 0"
	case res.Backend.Invalid != "":
		res.Outcome, res.Reason = Rejected, fmt.Sprintf("the backend chosen for this connection is invalid (%s): its share of connections is rejected", res.Backend.Invalid)
	default:
		res.Outcome = Forwarded
		res.Cluster = findCluster(gw, res.Backend.Cluster)
	}
}

// transport is the transport a listener or client protocol runs on.
func transport(protocol string) string {
	if protocol == "UDP" {
		return "UDP"
	}
	return "TCP"
}

// findL4Port returns the first Gateway (by name) with a listener on c's
// port and transport; TCP and UDP listeners may share a port number.
func findL4Port(model ir.IR, c Connection) (*ir.Gateway, *ir.Listener) {
	for gi := range model.Gateways {
		g := &model.Gateways[gi]
		if c.Gateway != "" && g.Name != c.Gateway {
			continue
		}
		for li := range g.Listeners {
			p := &g.Listeners[li]
			if p.Port != c.Port {
				continue
			}
			for _, l := range p.Listeners {
				if transport(l.Protocol) == transport(c.Protocol) {
					return g, p
				}
			}
		}
	}
	return nil, nil
}

// selectL4Listener picks the Gateway listener that takes c, or says why
// none does. A TCP or UDP listener cannot share its port with another of
// its transport (they conflict), so it takes every connection. HTTP, HTTPS
// and TLS listeners are told apart by the SNI, most specific hostname first
// (port.Listeners is sorted so); a plain TCP client reaches only an HTTP one.
func selectL4Listener(port *ir.Listener, c Connection) (*ir.GatewayListener, string) {
	var http *ir.GatewayListener
	for i := range port.Listeners {
		l := &port.Listeners[i]
		if transport(l.Protocol) != transport(c.Protocol) {
			continue
		}
		switch l.Protocol {
		case "TCP", "UDP":
			return l, ""
		case "HTTP":
			http = l
			continue
		}
		if c.Protocol == "TLS" && (l.Hostname == "" || hostMatches(l.Hostname, c.SNI)) {
			return l, ""
		}
	}
	if http != nil {
		return http, ""
	}
	if c.Protocol != "TLS" {
		return nil, fmt.Sprintf("the listeners on port %d expect a TLS ClientHello", c.Port)
	}
	return nil, fmt.Sprintf("no listener on port %d covers SNI %q", c.Port, c.SNI)
}

// findL4Route returns the live route of listener l that takes a connection
// with the given SNI: the first in IR order, which is most specific SNI
// first on TLS listeners. Routes superseded by an older one take nothing.
func findL4Route(port *ir.Listener, l *ir.GatewayListener, sni string) *ir.L4Route {
	routes := port.Forward
	if l.Protocol == "TLS" {
		routes = port.TLSRoutes
	}
	for i := range routes {
		r := &routes[i]
		if r.Listener != l.Name || r.SupersededBy != nil {
			continue
		}
		if l.Protocol == "TLS" && !hostMatches(r.SNI, sni) {
			continue
		}
		return r
	}
	return nil
}
