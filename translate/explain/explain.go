// Package explain traces one request through the data plane the way
// `gwsim explain` shows it: the Gateway and listener that take it, the
// virtual host, the route rule that wins and the ones that lost on
// precedence, the filters, the redirect or the backends; and, when nothing
// takes the request, every near miss with the conditions it failed. It is
// pure: the IR, the status, the objects and their sources in, a Trace out.
// The evaluator decides what happens; this package only explains it, so an
// explanation can never disagree with the answer it explains.
package explain

import (
	"net/http"
	"strings"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// Request is a request to explain: what the evaluator takes, plus the
// address the client connects to, which picks a Gateway.
type Request struct {
	evaluate.Request
	// Address, when set, picks the Gateway whose status.addresses or
	// spec.addresses holds it.
	Address string
	// GRPC marks a gRPC call (the request evaluate.GRPCCall builds): the
	// answer then says the gRPC status the client sees.
	GRPC bool
}

// scene is one explanation in progress: the request with its defaults,
// the evaluator's result and the parts of the IR it went through (nil
// where it stopped before them).
type scene struct {
	req      Request
	res      evaluate.Result
	gw       *ir.Gateway
	port     *ir.Listener
	listener *ir.GatewayListener
	// host is what listener hostnames are compared with: the SNI on an
	// HTTPS port, the Host otherwise.
	host string
	// asked is the Gateway the caller named, if any: routes whose parent
	// is missing or broken are near misses unless another one was asked for.
	asked string
	// noAddress is set when req.Address names no Gateway.
	noAddress bool
}

// Explain traces req through in.
func Explain(in Input, req Request) Trace {
	w := newWorld(in)
	req = withDefaults(req)
	s := &scene{req: req, asked: req.Gateway}
	gateway, ok, notes := w.pickGateway(req)
	s.req.Gateway = gateway
	switch {
	case !ok:
		s.noAddress = true
		s.res = evaluate.Result{Outcome: evaluate.NoGateway}
	case isConnection(req.Scheme):
		s.res = connect(in, s.req)
	default:
		s.res = evaluate.Evaluate(in.IR, s.req.Request)
		if s.res.NormalizedPath != "" {
			s.req.Path = s.res.NormalizedPath // what routing and near misses compare
		}
	}
	w.locate(s)
	t := Trace{Request: view(req), Outcome: s.res.Outcome, Status: s.res.Status, Notes: notes}
	t.Request.NormalizedPath = s.res.NormalizedPath
	if req.GRPC {
		t.GRPCStatus = evaluate.GRPCStatus(s.res)
	}
	if s.gw != nil {
		g := GatewayStep(w.gatewayRef(s.gw.Name))
		t.Gateway = &g
	}
	if s.listener != nil {
		t.Listener = w.listenerStep(s)
	}
	t.Connection = w.connectionStep(s)
	t.VirtualHost = s.res.VirtualHost
	switch {
	case s.res.Route != nil:
		w.explainMatch(s, &t)
		t.CORS = corsStep(s)
		t.Settings = settingsStep(s.res)
		if h := evaluate.GatewayHeaders(s.res); len(h) > 0 {
			t.GatewayHeaders = h
		}
	case isConnection(req.Scheme):
		t.Backends = w.l4Backends(s)
		t.NearMisses = w.l4NearMisses(s)
	case s.res.Outcome == evaluate.PathRedirected || s.res.Outcome == evaluate.BadRequest:
		// The listener answered before routing.
		t.Location = s.res.Location
		t.GatewayHeaders = evaluate.GatewayHeaders(s.res)
	case routing(s.res.Outcome):
		t.NearMisses = w.nearMisses(s)
	}
	t.PolicyEffects = w.policyEffects(s.res)
	t.Answer = w.answer(s, t)
	t.Policies = policyNotes(in, t, s.listener != nil && s.listener.Client != nil)
	t.NotSimulated = notSimulated(s.res)
	t.Caveat = caveat(t)
	return t
}

// routing reports whether an outcome comes from HTTP routing, so that
// routes that could have matched are near misses; a connection that
// failed, was misdirected or was forwarded as a stream never got there.
func routing(o evaluate.Outcome) bool {
	switch o {
	case evaluate.ConnectionFailed, evaluate.Misdirected, evaluate.Forwarded,
		evaluate.BadRequest, evaluate.PathRedirected:
		return false
	}
	return true
}

// withDefaults fills in what a client would: GET, "/", the scheme's port,
// and Host as the SNI of an https request.
func withDefaults(req Request) Request {
	if req.Scheme == "" {
		req.Scheme = "http"
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if req.Path == "" {
		req.Path = "/"
	}
	if req.Port == 0 {
		req.Port = 80
		if req.Scheme == "https" || req.Scheme == "tls" {
			req.Port = 443
		}
	}
	if req.Headers == nil {
		req.Headers = http.Header{}
	}
	if req.SNI == "" && (req.Scheme == "https" || req.Scheme == "tls") {
		req.SNI = req.Host
	}
	return req
}

func view(req Request) RequestView {
	v := RequestView{
		Scheme: req.Scheme, Host: req.Host, Port: req.Port, Method: req.Method, Path: req.Path,
		SNI: req.SNI, Gateway: req.Gateway, Address: req.Address, GRPC: req.GRPC, ClientIP: req.ClientIP,
	}
	if isConnection(req.Scheme) {
		v.Method, v.Path = "", ""
		return v // a connection has no method, path or headers
	}
	if len(req.Headers) > 0 {
		v.Headers = req.Headers
	}
	return v
}

// locate finds the IR parts the evaluator went through.
func (w *world) locate(s *scene) {
	if s.res.Gateway == "" {
		return
	}
	s.gw = w.irGateway(s.res.Gateway)
	if s.gw == nil {
		panic("bug: evaluator chose Gateway " + s.res.Gateway + ", which is not in the IR")
	}
	for i := range s.gw.Listeners {
		if s.gw.Listeners[i].Port == s.req.Port {
			s.port = &s.gw.Listeners[i]
			break
		}
	}
	if s.port == nil {
		return
	}
	s.host = evaluate.ListenerHost(s.port, s.req.Request)
	for i := range s.port.Listeners {
		if s.port.Listeners[i].Name == s.res.Listener {
			s.listener = &s.port.Listeners[i]
		}
	}
}

// listenerStep says which listener took the request and which were tried
// before it.
func (w *world) listenerStep(s *scene) *ListenerStep {
	l := s.listener
	step := &ListenerStep{
		Name: l.Name, Port: s.port.Port, Protocol: l.Protocol, Hostname: l.Hostname,
		Object: w.listenerOwner(s.gw.Name, *l), By: "host",
	}
	switch {
	case s.req.Scheme == "tcp" || s.req.Scheme == "udp" || l.Protocol == "TCP" || l.Protocol == "UDP":
		step.By = "port"
	case s.req.Scheme == "tls" || s.req.Scheme == "https" && s.req.SNI != "":
		step.By = "sni"
	}
	if step.By == "port" {
		return step // a TCP or UDP listener takes its whole port
	}
	for _, other := range s.port.Listeners {
		if other.Name == l.Name {
			break
		}
		step.Skipped = append(step.Skipped, SkippedListener{Name: other.Name, Hostname: other.Hostname})
	}
	return step
}

// listenerOwner is the object that declares a listener: its ListenerSet,
// or the Gateway.
func (w *world) listenerOwner(gateway string, l ir.GatewayListener) Ref {
	if l.ListenerSet == "" {
		return w.gatewayRef(gateway)
	}
	ns, name := splitName(l.ListenerSet)
	return w.objectRef("ListenerSet", ns, name)
}

func hasHTTPS(port *ir.Listener) bool {
	for _, l := range port.Listeners {
		if l.Protocol == "HTTPS" {
			return true
		}
	}
	return false
}

// splitName splits "namespace/name".
func splitName(s string) (string, string) {
	ns, name, ok := strings.Cut(s, "/")
	if !ok {
		return "", s
	}
	return ns, name
}
