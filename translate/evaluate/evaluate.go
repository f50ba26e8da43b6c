// Package evaluate runs one request through gwsim's IR the way a conformant
// data plane would: it picks the Gateway and port, the Gateway listener
// (listener isolation: the most specific hostname that covers the request),
// the virtual host, and the first route in precedence order that matches;
// then it applies the route's filters and picks a backend. It is pure: the IR
// and the request in, a Result out. No network, no Envoy.
package evaluate

import (
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
	// (Envoy's 404 "NR").
	RouteNotFound Outcome = "RouteNotFound"
)

// Result is what happened to the request.
type Result struct {
	Outcome     Outcome
	Status      int
	Gateway     string
	Listener    string
	VirtualHost string
	Route       *ir.Route
	// Location is set for redirects.
	Location string
	// Backend is the backend chosen by the request's seed (nil for
	// redirects and direct responses).
	Backend *ir.WeightedBackend
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

// Evaluate runs req through model.
func Evaluate(model ir.IR, req Request) Result {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if req.Path == "" {
		req.Path = "/"
	}
	gw, port := findPort(model, req)
	if port == nil {
		return Result{Outcome: NoGateway, Status: 0}
	}
	res := Result{Gateway: gw.Name, Status: http.StatusNotFound}
	listener, ok := selectListener(port, ListenerHost(port, req))
	if !ok {
		res.Outcome = NoListener
		return res
	}
	res.Listener = listener
	if req.Scheme == "" {
		req.Scheme = listenerScheme(port, listener)
	}
	for _, vh := range port.VirtualHosts {
		if vh.Listener != listener || !hostMatches(vh.Hostname, req.Host) {
			continue
		}
		res.VirtualHost = vh.Hostname
		for i := range vh.Routes {
			if matches(vh.Routes[i].Match, req) {
				return apply(res, &vh.Routes[i], req, port.Port)
			}
		}
		// Virtual hosts are sorted most specific first; Envoy picks one
		// virtual host per request, so a miss here is a 404.
		break
	}
	res.Outcome = RouteNotFound
	return res
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
