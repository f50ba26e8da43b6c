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
	"strconv"
	"strings"
	"syscall"

	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// RoundTripper is the suite's roundtripper.RoundTripper over a Network. It
// is a thin adapter: every answer the gateway gives comes from gwsim's
// evaluator run against the cluster's settled IR (evaluate.Evaluate for the
// connection and the request, evaluate.Exchange for what happens at the
// backend), never from the harness and never from what the test expects;
// adapter_test.go fails when an adapter file decides a status, a header or
// a backend itself. The harness plays only what is not the gateway:
//   - the network: the request's host:port is the Gateway whose
//     status.addresses holds the host (no port: 80 for http, 443 for
//     https); an address no Gateway holds, or a port the Gateway does not
//     listen on, is a refused connection, and a host name that is no
//     Gateway's address a failed DNS lookup, both returned as errors like
//     http.Client's. An outcome without an HTTP status (a failed TLS
//     handshake, a plain request to TLS listeners) closes the connection;
//   - the client: an https request (URL scheme https, or Protocol HTTPS or
//     H2) verifies the certificate a terminating listener serves as the
//     suite's client does (ServerName and ServerCertificate, servercert.go),
//     sends ServerName (the Host when empty) as its SNI and, when the
//     listener asks for one, the certificate its GetClientCertificateHook
//     gives, which crypto/x509 verifies (clientcert.go); the evaluator
//     decides what the listener does with the verdict;
//   - the backends: the evaluator's Exchange sends each attempt (and each
//     mirrored copy) to an endpoint it picked, and the Pod with that IP
//     answers as echo-basic does (echo.go), over TLS when a
//     BackendTLSPolicy applies (backendtls.go); a stream that a TLS or TCP
//     listener forwards reaches the endpoint evaluate.StreamTarget picked.
//
// Not emulated: the certificate a passed-through backend serves (a TLS
// listener in Passthrough mode) and a BackendTLSPolicy's hostname check
// against the backend's certificate, following redirects (the suite's redirect
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
	c.gateway, err = dp.gatewayAt(c.req.URL.Hostname())
	switch {
	case errors.Is(err, errRefused):
		return nil, nil, c.refused()
	case err != nil:
		return nil, nil, c.fail(err)
	}
	rnd := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	scheme := "http"
	if c.tls {
		scheme = "https"
	}
	ereq := evaluate.Request{
		Scheme: scheme, Host: c.host, Authority: c.hostHeader, Port: c.port, SNI: c.sni, Method: c.method,
		Path: c.req.URL.RequestURI(), Headers: c.headers, Gateway: c.gateway, Seed: rnd.Int64(),
	}
	if c.tls {
		if err := dp.verifyServerCertificate(c); err != nil {
			return nil, nil, c.fail(err)
		}
		if ereq.ClientCertificate, err = dp.clientCertificate(c); err != nil {
			return nil, nil, c.fail(err)
		}
	}
	res := evaluate.Evaluate(dp.model, ereq)
	switch {
	case res.Outcome == evaluate.NoGateway:
		return nil, nil, c.refused()
	case res.Outcome == evaluate.Forwarded:
		return dp.forwardStream(c, res.Connection, rnd)
	case res.Status == 0: // no HTTP answer: the connection fails
		return nil, nil, c.closed(res.Reason)
	}
	resp := evaluate.Exchange(res, dp.sender(c), rnd)
	creq, cres := c.response(resp)
	if res.Outcome == evaluate.Redirected { // parsed as DefaultRoundTripper does
		location := resp.Headers.Get("Location")
		loc, err := c.req.URL.Parse(location)
		if err != nil {
			return nil, nil, c.fail(fmt.Errorf("bad Location %q: %w", location, err))
		}
		cres.RedirectRequest = &roundtripper.RedirectRequest{Scheme: loc.Scheme, Host: loc.Hostname(), Port: loc.Port(), Path: loc.Path}
	}
	return creq, cres, nil
}

// sender plays the network and the echo Pods for the evaluator's attempts
// at backends on c's behalf.
func (dp *dataPlane) sender(c *call) evaluate.Send {
	return func(t evaluate.Target) evaluate.Answer {
		e := echoRequest{
			path: t.Request.Path, host: t.Request.Host, method: c.method, headers: t.Request.Headers,
			proto: "HTTP/1.1", client: c.req.URL.Hostname(), serverName: t.ServerName,
		}
		if t.HTTP2 {
			e.proto = "HTTP/2.0"
		}
		return dp.send(t, e).evaluated()
	}
}

// send delivers e to the Pod behind t's endpoint. An endpoint that no Pod
// holds refuses the connection, and a TLS handshake with the Pod that
// fails (a cluster a BackendTLSPolicy applies to) breaks it: the gateway
// sees both as a reset.
func (dp *dataPlane) send(t evaluate.Target, e echoRequest) echoAnswer {
	pod := dp.pods[t.Endpoint.Address]
	if pod == nil {
		return echoAnswer{reset: true}
	}
	if t.Cluster.TLS != nil {
		peers, err := dp.backendHandshake(pod, t.Endpoint.Port, t.Cluster.TLS)
		if err != nil {
			return echoAnswer{reset: true}
		}
		e.peerCertificates = peers
	}
	return dp.procs.serve(pod, e)
}

// forwardStream answers a connection that a TLS or TCP listener forwarded
// to a backend: the backend sees the request exactly as sent, and the
// client's SNI when the TLS is passed through.
func (dp *dataPlane) forwardStream(c *call, conn *evaluate.ConnectionResult, rnd *rand.Rand) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	t, why := evaluate.StreamTarget(*conn, evaluate.Connection{SNI: c.sni}, rnd)
	if why != "" {
		return nil, nil, c.closed(why)
	}
	e := echoRequest{path: c.req.URL.RequestURI(), host: c.hostHeader, method: c.method, headers: c.headers.Clone(), proto: "HTTP/1.1", client: c.req.URL.Hostname(), serverName: t.ServerName}
	a := dp.send(t, e)
	if a.reset {
		return nil, nil, c.fail(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)})
	}
	creq, cresp := c.response(evaluate.Response{Status: a.status, Headers: a.headers, Body: a.evaluated().Body})
	return creq, cresp, nil
}

// responseProto is the protocol of the client's connection to the gateway.
func (c *call) responseProto() string {
	if c.req.Protocol == roundtripper.H2Protocol || c.req.Protocol == roundtripper.H2CPriorKnowledgeProtocol {
		return "HTTP/2.0"
	}
	return "HTTP/1.1"
}

// response is the client's view of the evaluator's response: as
// DefaultRoundTripper does for a body that is not JSON (the gateway's own
// answers, the echo's /status/ answers), the captured request holds only
// the method; the echo's JSON body is the captured request.
func (c *call) response(r evaluate.Response) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse) {
	h := r.Headers
	if h == nil {
		h = http.Header{}
	}
	body, _ := r.Body.(*roundtripper.CapturedRequest)
	if body == nil {
		return &roundtripper.CapturedRequest{Method: c.method},
			&roundtripper.CapturedResponse{StatusCode: r.Status, Protocol: c.responseProto(), Headers: h}
	}
	encoded, err := json.Marshal(body)
	if err != nil {
		panic(fmt.Sprintf("bug: encoding the echo body: %v", err))
	}
	return body, &roundtripper.CapturedResponse{
		StatusCode: r.Status, ContentLength: int64(len(encoded)), Protocol: c.responseProto(), Headers: h,
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
