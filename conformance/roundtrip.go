package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// RoundTripper is the suite's roundtripper.RoundTripper over a Network: it
// answers each request from gwsim's evaluator (evaluate.EvaluateConnection
// for the connection, evaluate.Evaluate for the request) run against the
// cluster's settled IR, never from what the test expects. It plays the
// network, the gateway's data plane and the echo-basic backends:
//   - the request's host:port is the Gateway whose status.addresses holds
//     the host (no port: 80 for http, 443 for https); an address no Gateway
//     holds, or a port the Gateway does not listen on, is a refused
//     connection, and a host name that is no Gateway's address a failed DNS
//     lookup, both returned as errors like http.Client's;
//   - an https request (URL scheme https, or Protocol HTTPS or H2) opens
//     with a ClientHello whose SNI is ServerName (the Host when empty): the
//     SNI picks the listener. A TLS listener forwards the stream to its
//     TLSRoute's backend; an HTTPS listener terminates TLS, asking for a
//     client certificate when it validates them (clientcert.go), and the
//     request is routed, with a 421 when its Host belongs to another
//     listener than the SNI's (misdirected request, as Envoy-based gateways
//     answer). No listener for the SNI closes the connection (an error);
//   - a plain request to a port whose listeners expect TLS is an error; one
//     to a TCP listener is forwarded as bytes to its TCPRoute's backend;
//   - a routed request reaches one random endpoint of the backend the
//     evaluator picked with a random seed (so weights show as a
//     distribution), and the Pod with that IP answers as echo-basic does
//     (echo.go); the route's response header modifier and CORS headers then
//     apply. A rule's retry policy retries a reset or a listed status, on a
//     random endpoint each time. Each mirror gets a copy of the forwarded
//     request for its share of requests, on one random endpoint, whose Pod
//     logs it as echo-basic does;
//   - the gateway answers itself when no route matches (404), with a
//     rule's direct response (500 for invalid backends), a redirect (3xx,
//     Location and RedirectRequest as DefaultRoundTripper parses them), a
//     CORS preflight (204), a backend without endpoints or whose
//     BackendTLSPolicy is invalid (503, Envoy's "no healthy upstream"), an
//     endpoint no Pod answers for or a connection reset (503), and a
//     timeout shorter than the echo's ?delay= (504).
//
// Not emulated: the server certificate (Request.ServerCertificate, the
// listener's certificate and a BackendTLSPolicy's hostname check against
// the backend's certificate), following redirects (the suite's redirect
// tests set UnfollowRedirect; a redirect is always returned as is),
// session persistence, the gateway's default timeout, real delays (a
// retry's backoff, ?delay=), request bodies, and the headers a client or
// proxy adds (User-Agent, X-Forwarded-*).
type RoundTripper struct {
	Network *Network
}

var _ roundtripper.RoundTripper = (*RoundTripper)(nil)

// CaptureRoundTrip answers req from the cluster's world as it stands now.
// An error is what a client would get without a response: no Gateway at
// the address, nothing listening on the port, a connection the gateway
// closes, a failed TLS handshake; any HTTP status is a response.
func (rt *RoundTripper) CaptureRoundTrip(req roundtripper.Request) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	dp, err := rt.Network.dataPlane(context.Background())
	if err != nil {
		return nil, nil, fmt.Errorf("gwsim round-tripper: %w", err)
	}
	return dp.roundTrip(req)
}

// call is one request as the client sends it.
type call struct {
	req    roundtripper.Request
	method string
	tls    bool
	port   int32
	// hostHeader is the Host header as sent (a port included); host is
	// without the port, as routing sees it.
	hostHeader, host string
	sni              string
	headers          http.Header
	gateway          string
	listeners        *ir.Listener
}

func newCall(req roundtripper.Request) (*call, error) {
	c := &call{req: req, method: req.Method, hostHeader: req.Host, headers: http.Header{}}
	if c.method == "" {
		c.method = http.MethodGet
	}
	scheme := strings.ToLower(req.URL.Scheme)
	c.tls = scheme == "https" || req.Protocol == roundtripper.HTTPSProtocol || req.Protocol == roundtripper.H2Protocol
	c.port = 80
	if c.tls {
		c.port = 443
	}
	if p := req.URL.Port(); p != "" {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil, c.fail(fmt.Errorf("invalid port %q", p))
		}
		c.port = int32(n)
	}
	if c.hostHeader == "" {
		c.hostHeader = req.URL.Host
	}
	c.host = stripPort(c.hostHeader)
	c.sni = req.ServerName
	if c.sni == "" {
		c.sni = c.host
	}
	// As DefaultRoundTripper: the first value of each header, canonical.
	for name, values := range req.Headers {
		if len(values) > 0 {
			c.headers.Set(name, values[0])
		}
	}
	return c, nil
}

// stripPort returns hostport without its port and IPv6 brackets.
func stripPort(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func (dp *dataPlane) roundTrip(req roundtripper.Request) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	c, err := newCall(req)
	if err != nil {
		return nil, nil, err
	}
	c.gateway, c.listeners, err = dp.port(c.req.URL.Hostname(), c.port)
	switch {
	case errors.Is(err, errRefused):
		return nil, nil, c.refused()
	case err != nil:
		return nil, nil, c.fail(err)
	}
	conn := evaluate.Connection{Gateway: c.gateway, Port: c.port, Protocol: "TCP", Seed: rand.Int64()}
	if c.tls {
		conn.Protocol, conn.SNI = "TLS", c.sni
	}
	cres := evaluate.EvaluateConnection(dp.model, conn)
	switch cres.Outcome {
	case evaluate.HTTPListener:
		if c.tls {
			if err := dp.handshake(c, cres.Listener); err != nil {
				return nil, nil, c.fail(err)
			}
		}
		return dp.serveHTTP(c, cres.Listener)
	case evaluate.Forwarded:
		return dp.forwardStream(c, cres)
	case evaluate.NoGateway:
		return nil, nil, c.refused()
	}
	return nil, nil, c.closed(cres.Reason)
}

// serveHTTP routes a request that an HTTP or HTTPS listener took;
// listener is the one the SNI picked for a TLS client.
func (dp *dataPlane) serveHTTP(c *call, listener string) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	scheme := "http"
	if c.tls {
		scheme = "https"
	}
	res := evaluate.Evaluate(dp.model, evaluate.Request{
		Scheme: scheme, Host: c.host, Port: c.port, Method: c.method,
		Path: c.req.URL.RequestURI(), Headers: c.headers, Gateway: c.gateway, Seed: rand.Int64(),
	})
	if c.tls && res.Listener != listener {
		creq, cres := c.local(http.StatusMisdirectedRequest, nil)
		return creq, cres, nil
	}
	var creq *roundtripper.CapturedRequest
	var cres *roundtripper.CapturedResponse
	switch res.Outcome {
	case evaluate.NoGateway:
		return nil, nil, c.refused()
	case evaluate.Routed:
		creq, cres = dp.forwardRequest(c, res)
	case evaluate.Redirected:
		loc, err := c.req.URL.Parse(res.Location)
		if err != nil {
			return nil, nil, c.fail(fmt.Errorf("bad Location %q: %w", res.Location, err))
		}
		creq, cres = c.local(res.Status, http.Header{"Location": {res.Location}})
		cres.RedirectRequest = &roundtripper.RedirectRequest{Scheme: loc.Scheme, Host: loc.Hostname(), Port: loc.Port(), Path: loc.Path}
	default: // no listener or route (404), direct response, CORS preflight, denied
		creq, cres = c.local(res.Status, nil)
	}
	h := http.Header(cres.Headers)
	evaluate.ModifyHeaders(h, res.ResponseHeaders)
	for name, values := range res.CORSHeaders {
		h[name] = append([]string(nil), values...)
	}
	return creq, cres, nil
}

// forwardRequest sends a routed request to the chosen backend, retrying
// as the rule says, and copies it to the rule's mirrors.
func (dp *dataPlane) forwardRequest(c *call, res evaluate.Result) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse) {
	cl := dp.cluster(res.Gateway, res.Backend.Cluster)
	if cl == nil || len(cl.Endpoints) == 0 || (cl.TLS != nil && cl.TLS.Invalid != "") {
		// Envoy answers 503 ("no healthy upstream") when a cluster has no
		// endpoint, and 503 too when it cannot set up the TLS the cluster
		// requires.
		return c.local(http.StatusServiceUnavailable, nil)
	}
	if timedOut(res.Timeouts, res.Forwarded.Path) {
		return c.local(http.StatusGatewayTimeout, nil) // Envoy's "upstream request timeout"
	}
	host := res.Forwarded.Host
	if host == c.host {
		host = c.hostHeader // not rewritten: the Host header goes on as sent
	}
	e := echoRequest{path: res.Forwarded.Path, host: host, method: c.method, headers: res.Forwarded.Headers, proto: "HTTP/1.1", client: c.req.URL.Hostname()}
	if cl.Protocol == "kubernetes.io/h2c" {
		e.proto = "HTTP/2.0"
	}
	if cl.TLS != nil {
		e.serverName = cl.TLS.SNI
	}
	dp.mirror(res, e)
	a := dp.sendWithRetries(cl, e, res.Retry)
	return c.answer(a)
}

// sendWithRetries sends e to a random endpoint of cl, and again to a
// random one after a reset or a status the retry policy lists, up to its
// attempts (1 when it leaves them to the gateway, Envoy's default). The
// last answer is returned.
func (dp *dataPlane) sendWithRetries(cl *ir.Cluster, e echoRequest, retry *ir.Retry) echoAnswer {
	retries := 0
	if retry != nil {
		retries = max(retry.Attempts, 1)
	}
	for try := 0; ; try++ {
		a := dp.send(cl, e)
		if try == retries || !(a.reset || retry != nil && slices.Contains(retry.Codes, a.status)) {
			return a
		}
	}
}

// send delivers e to one random endpoint of cl. An endpoint that no Pod
// holds refuses the connection, and a TLS handshake with the Pod that
// fails (a cluster a BackendTLSPolicy applies to) breaks it: the gateway
// sees both as a reset.
func (dp *dataPlane) send(cl *ir.Cluster, e echoRequest) echoAnswer {
	ep := cl.Endpoints[rand.IntN(len(cl.Endpoints))]
	pod := dp.pods[ep.Address]
	if pod == nil {
		return echoAnswer{reset: true}
	}
	if cl.TLS != nil {
		peers, err := dp.backendHandshake(pod, ep.Port, cl.TLS)
		if err != nil {
			return echoAnswer{reset: true}
		}
		e.peerCertificates = peers
	}
	return dp.procs.serve(pod, e)
}

// mirror copies e to each of the result's mirrors for its share of
// requests; the mirrors' answers are dropped.
func (dp *dataPlane) mirror(res evaluate.Result, e echoRequest) {
	for _, m := range res.Mirrors {
		if m.Denominator <= 0 || rand.Int32N(m.Denominator) >= m.Numerator {
			continue
		}
		if cl := dp.cluster(res.Gateway, m.Cluster); cl != nil && len(cl.Endpoints) > 0 {
			dp.send(cl, e)
		}
	}
}

// forwardStream answers a connection that a TLS or TCP listener forwarded
// to a backend: the backend sees the request exactly as sent, and the
// client's SNI when the TLS is passed through.
func (dp *dataPlane) forwardStream(c *call, cres evaluate.ConnectionResult) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	cl := dp.cluster(cres.Gateway, cres.Backend.Cluster)
	if cl == nil || len(cl.Endpoints) == 0 {
		return nil, nil, c.closed(fmt.Sprintf("backend %s has no endpoint; the connection is closed", cres.Backend.Cluster))
	}
	e := echoRequest{path: c.req.URL.RequestURI(), host: c.hostHeader, method: c.method, headers: c.headers.Clone(), proto: "HTTP/1.1", client: c.req.URL.Hostname()}
	if cres.TLSMode == string(gwv1.TLSModePassthrough) {
		e.serverName = c.sni
	}
	a := dp.send(cl, e)
	if a.reset {
		return nil, nil, c.fail(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)})
	}
	creq, cresp := c.answer(a)
	return creq, cresp, nil
}

// timedOut reports whether the echo's ?delay= (how long it waits before
// answering) outlasts the rule's request or backend request timeout; "0s"
// disables a timeout, and an empty one is the gateway's default, which is
// not emulated.
func timedOut(t *ir.Timeouts, target string) bool {
	if t == nil {
		return false
	}
	_, query, _ := strings.Cut(target, "?")
	q, _ := url.ParseQuery(query)
	delay, err := time.ParseDuration(q.Get("delay"))
	if err != nil {
		return false
	}
	for _, s := range []string{t.Request, t.BackendRequest} {
		if d, err := time.ParseDuration(s); err == nil && d > 0 && delay >= d {
			return true
		}
	}
	return false
}

// responseProto is the protocol of the client's connection to the gateway.
func (c *call) responseProto() string {
	if c.req.Protocol == roundtripper.H2Protocol || c.req.Protocol == roundtripper.H2CPriorKnowledgeProtocol {
		return "HTTP/2.0"
	}
	return "HTTP/1.1"
}

// local is a response the gateway (or the echo, without its JSON body)
// makes itself: as DefaultRoundTripper does for a body that is not JSON,
// the captured request holds only the method.
func (c *call) local(status int, h http.Header) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse) {
	if h == nil {
		h = http.Header{}
	}
	return &roundtripper.CapturedRequest{Method: c.method},
		&roundtripper.CapturedResponse{StatusCode: status, Protocol: c.responseProto(), Headers: h}
}

// answer is the client's view of the echo's answer, as the gateway passes
// it on; a reset becomes the gateway's 503 (Envoy's "upstream connect
// error or disconnect/reset before headers").
func (c *call) answer(a echoAnswer) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse) {
	if a.reset {
		return c.local(http.StatusServiceUnavailable, nil)
	}
	if a.body == nil {
		return c.local(a.status, a.headers)
	}
	body, err := json.Marshal(a.body)
	if err != nil {
		panic(fmt.Sprintf("bug: encoding the echo body: %v", err))
	}
	return a.body, &roundtripper.CapturedResponse{
		StatusCode: a.status, ContentLength: int64(len(body)), Protocol: c.responseProto(), Headers: a.headers,
	}
}

// fail wraps err as http.Client does: `Get "http://…": err`.
func (c *call) fail(err error) error {
	op := c.method[:1] + strings.ToLower(c.method[1:])
	return &url.Error{Op: op, URL: c.req.URL.String(), Err: err}
}

// refused is the error of a connection nothing accepts.
func (c *call) refused() error {
	addr := &net.TCPAddr{IP: net.ParseIP(c.req.URL.Hostname()), Port: int(c.port)}
	return c.fail(&net.OpError{Op: "dial", Net: "tcp", Addr: addr, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
}

// closed is the error of a connection the gateway accepts and closes
// before answering (no listener or route for it); why says what gwsim saw.
func (c *call) closed(why string) error {
	return c.fail(fmt.Errorf("gwsim: %s: %w", why, io.EOF))
}
