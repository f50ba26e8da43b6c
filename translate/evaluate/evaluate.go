// Package evaluate runs one request through gwsim's IR the way a conformant
// data plane would: it picks the Gateway and port, the Gateway listener
// (listener isolation: the most specific hostname that covers the request),
// the virtual host, and the first route in precedence order that matches;
// then it applies the route's filters and picks a backend. It is pure: the IR
// and the request in, a Result out. No network, no Envoy.
package evaluate

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// Request is what a client sends, in the terms routing cares about.
type Request struct {
	Scheme string // "http" or "https"
	// Host is the request's authority without its port.
	Host string
	Port int32
	// Method defaults to GET.
	Method string
	// Path is the request target: path and optional "?query".
	Path    string
	Headers http.Header
	// Gateway, when set ("namespace/name"), restricts the evaluation to it.
	Gateway string
	// SNI is the server name of the TLS ClientHello. On an HTTPS port it,
	// not Host, picks the listener (the TLS filter chain is chosen before
	// any request is read); Host then picks the virtual host. Empty means
	// the client sends Host as its SNI, as clients do.
	SNI string
	// Seed picks among weighted backends deterministically: a value in
	// [0, total weight) selects the backend whose cumulative weight covers it.
	Seed int64
	// Authority is the Host header as sent, with its port if it has one;
	// the backend receives it unchanged unless a filter rewrites the host.
	// Empty means Host.
	Authority string
	// ClientCertificate is what the client's certificate proved in the TLS
	// handshake (see Connection.ClientCertificate); nil assumes a
	// certificate that verifies.
	ClientCertificate *ClientCertificate
	// KeepPath routes and forwards the path as sent, for gateways that do
	// not normalise it (NormalizePath); by default it is normalised first.
	KeepPath bool
	// ClientIP is the client's address as the gateway sees it, which
	// authorization rules on client CIDRs match; empty when not given.
	ClientIP string
}

// Outcome names why evaluation stopped.
type Outcome string

const (
	// Routed means a route rule matched and forwarded to a backend.
	Routed Outcome = "Routed"
	// Redirected means a route rule answered with a redirect.
	Redirected Outcome = "Redirected"
	// DirectResponse means a route rule answered itself (a 500 for invalid backends).
	DirectResponse Outcome = "DirectResponse"
	// NoGateway means no Gateway listens on the request's port.
	NoGateway Outcome = "NoGateway"
	// NoListener means no listener on the port covers the request's host.
	NoListener Outcome = "NoListener"
	// RouteNotFound means the listener took the request but no route matched
	// (404; Envoy's route_not_found, response flag NR).
	RouteNotFound Outcome = "RouteNotFound"
	// Misdirected means an HTTPS listener took the connection by its SNI,
	// but the request's Host belongs to another listener on the port (421).
	Misdirected Outcome = "Misdirected"
	// NoHealthyUpstream means the chosen backend cannot take the request:
	// the input shows its Service without a ready endpoint, or its
	// BackendTLSPolicy makes every connection fail (503, Envoy's "no
	// healthy upstream").
	NoHealthyUpstream Outcome = "NoHealthyUpstream"
)

// Result is what happened to the request.
type Result struct {
	Outcome Outcome
	// Status is the HTTP status the client sees; 0 when there is no HTTP
	// answer (no Gateway, a failed connection, a forwarded stream).
	Status int
	// Reason says why, for every outcome but Routed, in a sentence.
	Reason string
	// NormalizedPath is the request target routing matched and forwarded,
	// when normalising the path changed it.
	NormalizedPath string
	// Connection is how the client's connection was taken (the connection
	// stage of Evaluate), when the request's scheme is known.
	Connection  *ConnectionResult
	Gateway     string
	Listener    string
	VirtualHost string
	Route       *ir.Route
	// Location is set for redirects.
	Location string
	// Backend is the backend chosen by the request's seed (nil for
	// redirects and direct responses), and Cluster its cluster.
	Backend *ir.WeightedBackend
	Cluster *ir.Cluster
	// Forwarded is the request as the backend receives it, after filters.
	Forwarded ForwardedRequest
	// ResponseHeaders are the response header changes the route applies.
	ResponseHeaders *ir.HeaderModifier
	// Effects are mirrors, CORS headers and request policies (effects.go).
	Effects
}

// ForwardedRequest is the request after request filters ran.
type ForwardedRequest struct {
	Host    string
	Path    string
	Headers http.Header
}

// Evaluate runs req through model: the connection (which Gateway and
// listener take it, TLS or not: connection.go), then what the listener
// does before routing (the path normalised unless KeepPath, and its client
// settings: client.go), then HTTP routing on the listener that took it,
// then the matched rule's policies, filters and action.
func Evaluate(model ir.IR, req Request) Result {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if req.Path == "" {
		req.Path = "/"
	}
	return evaluate(model, req)
}

// evaluate is Evaluate on a request with its defaults and its path as
// routing sees it.
func evaluate(model ir.IR, req Request) Result {
	if req.Scheme != "" {
		res, port, listener, ok := connect(model, req)
		if !ok {
			return res
		}
		return route(res, model, port, listener, req)
	}
	// The caller does not say whether the client speaks TLS: the
	// listener's protocol decides, and the scheme follows it.
	gw, port := findPort(model, req)
	if port == nil {
		return Result{Outcome: NoGateway, Reason: fmt.Sprintf("no Gateway listens on port %d", req.Port)}
	}
	res := Result{Gateway: gw.Name, Status: http.StatusNotFound}
	listener, ok := selectListener(port, ListenerHost(port, req))
	if !ok {
		return noListener(res, port, ListenerHost(port, req))
	}
	res.Listener, req.Scheme = listener, listenerScheme(port, listener)
	return route(res, model, port, listener, req)
}

// route picks the listener's virtual host for req.Host and the first of
// its routes that matches.
func route(res Result, model ir.IR, port *ir.Listener, listener string, req Request) Result {
	res.Listener = listener
	req, ok := readRequest(&res, port, listener, req)
	if !ok {
		return res
	}
	for _, vh := range port.VirtualHosts {
		if vh.Listener != listener || !hostMatches(vh.Hostname, req.Host) {
			continue
		}
		res.VirtualHost = vh.Hostname
		for i := range vh.Routes {
			if matches(vh.Routes[i].Match, req) {
				return apply(res, gatewayOf(model, res.Gateway), &vh.Routes[i], req, port.Port)
			}
		}
		// Virtual hosts are sorted most specific first; Envoy picks one
		// virtual host per request, so a miss here is a 404.
		res.Outcome, res.Reason = RouteNotFound, fmt.Sprintf("no route of virtual host %s matches", vh.Hostname)
		return res
	}
	res.Outcome, res.Reason = RouteNotFound, fmt.Sprintf("no virtual host of listener %s covers %s", listener, req.Host)
	return res
}

// noListener is the answer when no listener on the port covers host.
func noListener(res Result, port *ir.Listener, host string) Result {
	res.Listener = ""
	res.Outcome, res.Reason = NoListener, fmt.Sprintf("no listener on port %d covers %s", port.Port, host)
	return res
}

// gatewayOf returns the Gateway "namespace/name" of model.
func gatewayOf(model ir.IR, name string) *ir.Gateway {
	for i := range model.Gateways {
		if model.Gateways[i].Name == name {
			return &model.Gateways[i]
		}
	}
	panic("bug: the evaluator chose Gateway " + name + ", which is not in the IR")
}

// findCluster returns the cluster of gw named name, nil if there is none.
func findCluster(gw *ir.Gateway, name string) *ir.Cluster {
	for i := range gw.Clusters {
		if gw.Clusters[i].Name == name {
			return &gw.Clusters[i]
		}
	}
	return nil
}

// findPort returns the first Gateway (by name) with a listener on req's port.
func findPort(model ir.IR, req Request) (*ir.Gateway, *ir.Listener) {
	for gi := range model.Gateways {
		g := &model.Gateways[gi]
		if req.Gateway != "" && g.Name != req.Gateway {
			continue
		}
		for li := range g.Listeners {
			if g.Listeners[li].Port == req.Port {
				return g, &g.Listeners[li]
			}
		}
	}
	return nil, nil
}

// selectListener applies listener isolation: Gateway listeners on a port
// are sorted most specific hostname first, and the first that covers the
// host takes the request.
func selectListener(port *ir.Listener, host string) (string, bool) {
	for _, l := range port.Listeners {
		if l.Hostname == "" || hostMatches(l.Hostname, host) {
			return l.Name, true
		}
	}
	return "", false
}

// hostMatches reports whether a virtual-host or listener hostname covers
// host; "*" covers everything and "*.example.com" covers any name below
// example.com. Host names compare case-insensitively.
func hostMatches(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(host)
	if pattern == "*" || pattern == host {
		return true
	}
	suffix, ok := strings.CutPrefix(pattern, "*")
	return ok && strings.HasSuffix(host, suffix) && len(host) > len(suffix)
}

// ListenerHost is the name listener isolation compares listener hostnames
// with: the SNI on a port that terminates TLS, when the client sends one,
// and the Host otherwise.
func ListenerHost(port *ir.Listener, req Request) string {
	if req.SNI == "" {
		return req.Host
	}
	for _, l := range port.Listeners {
		if l.Protocol == "HTTPS" {
			return req.SNI
		}
	}
	return req.Host
}
