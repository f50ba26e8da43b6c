package diff

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// RequestChange is one representative request whose outcome differs.
type RequestChange struct {
	// Request is the request line: "GET https://shop.example.com/cart",
	// with the port when it is not the scheme's default and the headers
	// the match needs: "GET http://a.example.com:8080/x [x-canary: true]".
	Request string      `json:"request"`
	Before  Destination `json:"before"`
	After   Destination `json:"after"`
}

// RouteChanged reports whether another route rule takes the request on
// both sides; when one side has none, the destination already says so.
func (c RequestChange) RouteChanged() bool {
	return c.Before.Route != nil && c.After.Route != nil && *c.Before.Route != *c.After.Route
}

// Destination is where one request ends, as the evaluator says.
type Destination struct {
	// Outcome is the evaluator's (Routed, Redirected, DirectResponse,
	// RouteNotFound, NoListener, NoGateway...).
	Outcome evaluate.Outcome `json:"outcome"`
	Status  int              `json:"status,omitempty"`
	// Route is the route rule match that took the request.
	Route *ir.Origin `json:"route,omitempty"`
	// Summary says where the request goes: the backends and their shares,
	// the redirect, or the status the gateway answers with.
	Summary string `json:"summary"`
}

// probe is one representative request with where it was built from.
type probe struct {
	line string
	req  evaluate.Request
}

// compareRequests builds a representative request for every match of
// either IR, runs each through both, and keeps those whose destination
// changes: a different summary, or the same backends reached through
// another route.
func compareRequests(old, new ir.IR) []RequestChange {
	probes := map[string]evaluate.Request{}
	named := len(gatewayNames(old, new)) > 1
	same := unchangedPorts(old, new)
	for _, model := range []ir.IR{old, new} {
		for _, p := range probesOf(model, same) {
			if named {
				p.line += " (Gateway " + p.req.Gateway + ")"
			}
			probes[p.line] = p.req
		}
	}
	var out []RequestChange
	for line, req := range probes {
		b, a := destinationOf(old, req), destinationOf(new, req)
		if b.Summary == a.Summary && originEqual(b.Route, a.Route) {
			continue
		}
		out = append(out, RequestChange{Request: line, Before: b, After: a})
	}
	slices.SortFunc(out, func(x, y RequestChange) int { return cmp.Compare(x.Request, y.Request) })
	return out
}

// gatewayNames lists the Gateways of both IRs. With one Gateway, a request
// line needs no Gateway name to say where it goes.
func gatewayNames(models ...ir.IR) map[string]bool {
	out := map[string]bool{}
	for _, m := range models {
		for _, g := range m.Gateways {
			out[g.Name] = true
		}
	}
	return out
}

func originEqual(a, b *ir.Origin) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// portKey names one port of one Gateway.
type portKey struct {
	gateway string
	port    int32
}

// unchangedPorts lists the Gateway ports whose whole IR (listeners, TLS,
// virtual hosts and routes in order) is the same in both versions. A
// request built for such a port is evaluated the same way on both sides:
// the evaluator reads nothing else of the IR for it, so it need not run.
func unchangedPorts(old, new ir.IR) map[portKey]bool {
	before := map[portKey]*ir.Listener{}
	for gi := range old.Gateways {
		g := &old.Gateways[gi]
		for li := range g.Listeners {
			before[portKey{g.Name, g.Listeners[li].Port}] = &g.Listeners[li]
		}
	}
	out := map[portKey]bool{}
	for gi := range new.Gateways {
		g := &new.Gateways[gi]
		for li := range g.Listeners {
			k := portKey{g.Name, g.Listeners[li].Port}
			if b, ok := before[k]; ok && reflect.DeepEqual(*b, g.Listeners[li]) {
				out[k] = true
			}
		}
	}
	return out
}

// probesOf builds one request per route match of model's virtual hosts,
// leaving out the ports in skip. Matches no request can be built for (a
// regular expression gwsim cannot sample) are skipped too.
func probesOf(model ir.IR, skip map[portKey]bool) []probe {
	var out []probe
	for _, g := range model.Gateways {
		for li := range g.Listeners {
			l := &g.Listeners[li]
			if skip[portKey{g.Name, l.Port}] {
				continue
			}
			for _, vh := range l.VirtualHosts {
				scheme := schemeOf(l, vh.Listener)
				for _, r := range vh.Routes {
					if p, ok := probeFor(g.Name, l.Port, scheme, vh.Hostname, r); ok {
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

func schemeOf(l *ir.Listener, listener string) string {
	for _, gl := range l.Listeners {
		if gl.Name == listener && gl.Protocol == "HTTPS" {
			return "https"
		}
	}
	return "http"
}

// sampleHost is a name a virtual host's hostname covers: the name itself,
// "any." in place of a wildcard label, or "any.example" (a reserved name)
// for the catch-all.
func sampleHost(hostname string) string {
	switch {
	case hostname == "*" || hostname == "":
		return "any.example"
	case strings.HasPrefix(hostname, "*."):
		return "any" + hostname[1:]
	}
	return hostname
}

// probeFor builds the request that exercises r's match: its path (a
// regular expression's shortest sample), method, header and query values.
// gRPC matches are sent as gRPC calls (POST, application/grpc). The request
// is sent to the Gateway the match is on, as a client that resolved its
// address would.
func probeFor(gateway string, port int32, scheme, hostname string, r ir.Route) (probe, bool) {
	m := r.Match
	path, ok := samplePath(m)
	if !ok {
		return probe{}, false
	}
	req := evaluate.Request{Scheme: scheme, Host: sampleHost(hostname), Port: port, Method: m.Method, Headers: http.Header{},
		Gateway: gateway}
	if r.Origin.Kind == "GRPCRoute" {
		req.Method = http.MethodPost
		req.Headers.Set("Content-Type", "application/grpc")
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	for _, h := range m.Headers {
		v, ok := sampleValue(h)
		if !ok {
			return probe{}, false
		}
		req.Headers.Add(h.Name, v)
	}
	q := url.Values{}
	for _, p := range m.QueryParams {
		v, ok := sampleValue(p)
		if !ok {
			return probe{}, false
		}
		q.Add(p.Name, v)
	}
	req.Path = path
	if len(q) > 0 {
		req.Path += "?" + q.Encode()
	}
	return probe{line: requestLine(req), req: req}, true
}

// requestLine renders a request as a reader types it: method, URL (the
// port only when it is not the scheme's), then headers sorted by name.
func requestLine(r evaluate.Request) string {
	host := r.Host
	if !(r.Scheme == "http" && r.Port == 80) && !(r.Scheme == "https" && r.Port == 443) {
		host += ":" + strconv.Itoa(int(r.Port))
	}
	line := fmt.Sprintf("%s %s://%s%s", r.Method, r.Scheme, host, r.Path)
	var hs []string
	for name, vs := range r.Headers {
		for _, v := range vs {
			hs = append(hs, strings.ToLower(name)+": "+v)
		}
	}
	if len(hs) > 0 {
		slices.Sort(hs)
		line += " [" + strings.Join(hs, ", ") + "]"
	}
	return line
}

// destinationOf runs req through model and summarises where it ends.
func destinationOf(model ir.IR, req evaluate.Request) Destination {
	res := evaluate.Evaluate(model, req)
	d := Destination{Outcome: res.Outcome, Status: res.Status}
	if res.Route != nil {
		o := res.Route.Origin
		d.Route = &o
	}
	switch res.Outcome {
	case evaluate.NoGateway:
		d.Summary = fmt.Sprintf("no Gateway listens on port %d", req.Port)
	case evaluate.NoListener:
		d.Summary = "no_listener (404)"
	case evaluate.RouteNotFound:
		d.Summary = "route_not_found (404)"
	case evaluate.Redirected:
		d.Summary = fmt.Sprintf("%d redirect to %s", res.Status, res.Location)
	case evaluate.Routed, evaluate.DirectResponse:
		d.Summary = routedSummary(res)
	default:
		d.Summary = fmt.Sprintf("%d %s", res.Status, res.Outcome)
	}
	return d
}

// routedSummary describes a request a rule took: the split between its
// backends when it forwards (the evaluator picks one backend per request;
// a reader wants all of them with their shares), or its direct response.
func routedSummary(res evaluate.Result) string {
	a := res.Route.Action
	if a.DirectResponse != nil {
		return directResponseString(a.DirectResponse, a.Backends)
	}
	if res.Outcome == evaluate.DirectResponse && len(a.Backends) == 0 {
		return directString(res.Status, "")
	}
	return Shares(a.Backends)
}
