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
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// RoundTripper is the suite's roundtripper.RoundTripper over a Cluster: it
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
//     TLSRoute's backend; an HTTPS listener terminates TLS and the request
//     is routed, with a 421 when its Host belongs to another listener than
//     the SNI's (misdirected request, as Envoy-based gateways answer). No
//     listener for the SNI closes the connection (an error);
//   - a plain request to a port whose listeners expect TLS is an error; one
//     to a TCP listener is forwarded as bytes to its TCPRoute's backend;
//   - a routed request reaches one random endpoint of the backend the
//     evaluator picked with a random seed (so weights show as a
//     distribution), and the Pod with that IP answers as echo-basic does:
//     the request as forwarded (path with query, Host, headers, method) in
//     the body, X-Echo-Set-Header honoured, /status/NNN answered with NNN;
//     the route's response header modifier and CORS headers then apply;
//   - the gateway answers itself when no route matches (404), with a
//     rule's direct response (500 for invalid backends), a redirect (3xx,
//     Location and RedirectRequest as DefaultRoundTripper parses them), a
//     CORS preflight (204), a backend without endpoints or whose
//     BackendTLSPolicy is invalid (503, Envoy's "no healthy upstream"), and
//     a timeout shorter than the echo's ?delay= (504).
//
// Not emulated: certificate verification (Request.ServerCertificate, the
// listener's certificate and a BackendTLSPolicy's hostname check against
// the backend's certificate), client certificates (frontend validation),
// following redirects (the suite's redirect tests set UnfollowRedirect; a
// redirect is always returned as is), retries, session persistence,
// mirroring, the gateway's default timeout and real delays, request bodies,
// the headers a client or proxy adds (User-Agent, X-Forwarded-*), and
// WebSocket or gRPC traffic.
type RoundTripper struct {
	Cluster *Cluster
}

var _ roundtripper.RoundTripper = (*RoundTripper)(nil)

// CaptureRoundTrip answers req from the cluster's world as it stands now.
// An error is what a client would get without a response: no Gateway at
// the address, nothing listening on the port, a connection the gateway
// closes; any HTTP status is a response.
func (rt *RoundTripper) CaptureRoundTrip(req roundtripper.Request) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	ctx := context.Background()
	world, err := rt.Cluster.World(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("gwsim round-tripper: %w", err)
	}
	var pods corev1.PodList
	if err := rt.Cluster.List(ctx, &pods); err != nil {
		return nil, nil, fmt.Errorf("gwsim round-tripper: listing Pods: %w", err)
	}
	return newDataPlane(world, pods.Items).roundTrip(req)
}

// dataPlane is one settled world as the network sees it.
type dataPlane struct {
	model ir.IR
	// gateways maps a Gateway status address to the Gateway, "ns/name".
	gateways map[string]string
	// pods maps a Pod IP to the Pod, which answers for its endpoint.
	pods map[string]*corev1.Pod
}

func newDataPlane(world *offline.Result, pods []corev1.Pod) *dataPlane {
	dp := &dataPlane{model: world.Output.IR, gateways: map[string]string{}, pods: map[string]*corev1.Pod{}}
	for _, o := range world.Objects {
		gw, ok := o.(*gwv1.Gateway)
		if !ok {
			continue
		}
		for _, a := range gw.Status.Addresses {
			dp.gateways[a.Value] = gw.Namespace + "/" + gw.Name
		}
	}
	for i := range pods {
		if ip := pods[i].Status.PodIP; ip != "" {
			dp.pods[ip] = &pods[i]
		}
	}
	return dp
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
	if err := dp.dial(c); err != nil {
		return nil, nil, err
	}
	conn := evaluate.Connection{Gateway: c.gateway, Port: c.port, Protocol: "TCP", Seed: rand.Int64()}
	if c.tls {
		conn.Protocol, conn.SNI = "TLS", c.sni
	}
	cres := evaluate.EvaluateConnection(dp.model, conn)
	switch cres.Outcome {
	case evaluate.HTTPListener:
		return dp.serveHTTP(c, cres.Listener)
	case evaluate.Forwarded:
		return dp.forwardStream(c, cres)
	case evaluate.NoGateway:
		return nil, nil, c.refused()
	}
	return nil, nil, c.closed(cres.Reason)
}

// dial finds the Gateway listening at the request's address and port.
func (dp *dataPlane) dial(c *call) error {
	addr := c.req.URL.Hostname()
	gw, ok := dp.gateways[addr]
	if !ok {
		if net.ParseIP(addr) == nil {
			return c.fail(&net.DNSError{Err: "no such host", Name: addr, IsNotFound: true})
		}
		return c.refused()
	}
	for gi := range dp.model.Gateways {
		g := &dp.model.Gateways[gi]
		if g.Name != gw {
			continue
		}
		for li := range g.Listeners {
			if g.Listeners[li].Port == c.port {
				c.gateway, c.listeners = gw, &g.Listeners[li]
				return nil
			}
		}
	}
	return c.refused()
}

// serveHTTP routes a request that an HTTP or HTTPS listener took;
// listener is the one the SNI picked for a TLS client.
func (dp *dataPlane) serveHTTP(c *call, listener string) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	if c.tls && c.listenerProtocol(listener) != string(gwv1.HTTPSProtocolType) {
		return nil, nil, c.fail(errors.New("tls: first record does not look like a TLS handshake"))
	}
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
	if res.ResponseHeaders != nil {
		modifyHeaders(h, res.ResponseHeaders)
	}
	for name, values := range res.CORSHeaders {
		h[name] = append([]string(nil), values...)
	}
	return creq, cres, nil
}

// forwardRequest sends a routed request to one endpoint of the chosen
// backend.
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
	e := echoRequest{path: res.Forwarded.Path, host: host, method: c.method, headers: res.Forwarded.Headers, proto: "HTTP/1.1"}
	if cl.Protocol == "kubernetes.io/h2c" {
		e.proto = "HTTP/2.0"
	}
	if cl.TLS != nil {
		e.serverName = cl.TLS.SNI
	}
	return dp.echo(c, cl, e)
}

// forwardStream answers a connection that a TLS or TCP listener forwarded
// to a backend: the backend sees the request exactly as sent, and the
// client's SNI when the TLS is passed through.
func (dp *dataPlane) forwardStream(c *call, cres evaluate.ConnectionResult) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	cl := dp.cluster(cres.Gateway, cres.Backend.Cluster)
	if cl == nil || len(cl.Endpoints) == 0 {
		return nil, nil, c.closed(fmt.Sprintf("backend %s has no endpoint; the connection is closed", cres.Backend.Cluster))
	}
	e := echoRequest{path: c.req.URL.RequestURI(), host: c.hostHeader, method: c.method, headers: c.headers.Clone(), proto: "HTTP/1.1"}
	if cres.TLSMode == string(gwv1.TLSModePassthrough) {
		e.serverName = c.sni
	}
	creq, cresp := dp.echo(c, cl, e)
	return creq, cresp, nil
}

func (dp *dataPlane) cluster(gateway, name string) *ir.Cluster {
	for gi := range dp.model.Gateways {
		g := &dp.model.Gateways[gi]
		if g.Name != gateway {
			continue
		}
		for ci := range g.Clusters {
			if g.Clusters[ci].Name == name {
				return &g.Clusters[ci]
			}
		}
	}
	return nil
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

// modifyHeaders applies a header modifier in the spec's order: set, add,
// remove.
func modifyHeaders(h http.Header, m *ir.HeaderModifier) {
	for _, s := range m.Set {
		h.Set(s.Name, s.Value)
	}
	for _, a := range m.Add {
		h.Add(a.Name, a.Value)
	}
	for _, r := range m.Remove {
		h.Del(r)
	}
}

func (c *call) listenerProtocol(name string) string {
	for _, l := range c.listeners.Listeners {
		if l.Name == name {
			return l.Protocol
		}
	}
	return ""
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

// echoRequest is the request an echo-basic Pod receives.
type echoRequest struct {
	path, host, method, proto string
	headers                   http.Header
	// serverName is the SNI of a TLS connection to the echo, if any.
	serverName string
}

// statusPath is echo-basic's /status/NNN handler, which answers NNN.
var statusPath = regexp.MustCompile(`^/status/(\d\d\d)$`)

// echo answers e from one random endpoint of cl as echo-basic would: a
// JSON body describing e (namespace and Pod from the Pod with the
// endpoint's IP), the headers that X-Echo-Set-Header asks for, and
// Content-Type. /status/ paths get their status and no body.
func (dp *dataPlane) echo(c *call, cl *ir.Cluster, e echoRequest) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse) {
	ep := cl.Endpoints[rand.IntN(len(cl.Endpoints))]
	if path, _, _ := strings.Cut(e.path, "?"); strings.HasPrefix(path, "/status/") {
		status := http.StatusBadRequest
		if m := statusPath.FindStringSubmatch(e.path); m != nil {
			status, _ = strconv.Atoi(m[1])
		}
		return c.local(status, nil)
	}
	headers := e.headers.Clone()
	headers.Del("Host") // a Go server keeps the Host header out of Header
	creq := &roundtripper.CapturedRequest{
		Path: e.path, Host: e.host, Method: e.method, Protocol: e.proto, Headers: headers,
		HTTPPort: "3000", TLS: roundtripper.TLS{ServerName: e.serverName},
	}
	creq.Namespace, _, _ = strings.Cut(cl.Service, "/")
	if pod := dp.pods[ep.Address]; pod != nil {
		creq.Namespace, creq.Pod = pod.Namespace, pod.Name
		creq.HTTPPort = podEnv(pod, "HTTP_PORT", "3000")
	}
	h := echoSetHeaders(e.headers)
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	body, err := json.Marshal(creq)
	if err != nil {
		panic(fmt.Sprintf("bug: encoding the echo body: %v", err))
	}
	return creq, &roundtripper.CapturedResponse{
		StatusCode: http.StatusOK, ContentLength: int64(len(body)), Protocol: c.responseProto(), Headers: h,
	}
}

// echoSetHeaders reads echo-basic's X-Echo-Set-Header request header:
// comma-separated "name:value" pairs that the echo sets on its response, a
// repeated name joining its values with ",". Empty names are dropped, as a
// Go server does not write them.
func echoSetHeaders(req http.Header) http.Header {
	h := http.Header{}
	for _, list := range req.Values("X-Echo-Set-Header") {
		for kv := range strings.SplitSeq(list, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(kv), ":")
			if name == "" {
				continue
			}
			name, value = http.CanonicalHeaderKey(name), strings.TrimSpace(value)
			if len(h[name]) == 0 {
				h[name] = []string{value}
			} else {
				h[name][0] += "," + value
			}
		}
	}
	return h
}

// podEnv is the literal value of the environment variable name in the
// Pod's containers, or def.
func podEnv(pod *corev1.Pod, name, def string) string {
	for _, ctr := range pod.Spec.Containers {
		for _, env := range ctr.Env {
			if env.Name == name && env.Value != "" {
				return env.Value
			}
		}
	}
	return def
}
