package evaluate

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// GatewayTimeout means the backend did not answer within the rule's
// request or backend request timeout (504, Envoy's "upstream request
// timeout"). Only Exchange, which sees the backend answer, gives it.
const GatewayTimeout Outcome = "GatewayTimeout"

// Target is one attempt of the gateway at a backend: the endpoint it
// connects to, the TLS it speaks there and the request it sends.
type Target struct {
	Cluster  *ir.Cluster
	Endpoint ir.Endpoint
	// ServerName is the SNI the gateway sends to the endpoint: the
	// BackendTLSPolicy's hostname, or the client's own SNI for a TLS
	// connection passed through; empty for plaintext.
	ServerName string
	// Request is the request the endpoint receives (HTTP only), over
	// HTTP/2 when HTTP2 is set (a Service port with appProtocol
	// kubernetes.io/h2c), HTTP/1.1 otherwise.
	Request ForwardedRequest
	HTTP2   bool
	// Mirror marks a mirrored copy, whose answer the gateway drops.
	Mirror bool
}

// Answer is what one attempt got, as the caller's network and backend
// played it. The evaluator never looks inside Body.
type Answer struct {
	Status  int
	Headers http.Header
	Body    any
	// Reset is set when no response came: the connection was refused or
	// reset, or the TLS handshake with the endpoint failed.
	Reset bool
	// Latency is how long the backend took to answer.
	Latency time.Duration
}

// Response is what the client gets for a request.
type Response struct {
	Outcome Outcome
	// Status is 0 when the client gets no HTTP answer (see Result.Status).
	Status  int
	Headers http.Header
	// Body is the backend's answer's; nil when the gateway answered itself.
	Body any
	// Local is set when the gateway answered itself.
	Local bool
	// Reason says why the gateway answered itself.
	Reason string
	// Attempts is how many times the request went to the backend.
	Attempts int
}

// Send plays one attempt on the network behind the gateway.
type Send func(Target) Answer

// Exchange plays the request that Evaluate answered with res: a routed
// request goes to an endpoint of its backend chosen by rnd, through send,
// with copies to the rule's mirrors for their share of requests; the
// rule's retry policy sends it again, to an endpoint chosen anew, after a
// reset or a status it lists (attempts: 1 retry when it leaves the number
// to the gateway, as Envoy does); the rule's timeouts turn a late answer
// into a 504 ("0s" disables one; without one the gateway's default, which
// gwsim does not model, applies). A cluster without an endpoint, and a
// reset on the last attempt, get the gateway's 503. The backend's headers
// then get the rule's response header changes and CORS headers, which
// apply as well to every answer the gateway makes itself.
func Exchange(res Result, send Send, rnd *rand.Rand) Response {
	if res.Outcome != Routed {
		return local(res, res.Outcome, res.Status, res.Reason, 0)
	}
	mirror(res, send, rnd)
	retries := 0
	if res.Retry != nil {
		retries = max(res.Retry.Attempts, 1)
	}
	for try := 0; ; try++ {
		ep, ok := PickEndpoint(res.Cluster, rnd)
		if !ok {
			return local(res, NoHealthyUpstream, http.StatusServiceUnavailable, fmt.Sprintf("cluster %s has no endpoint", res.Backend.Cluster), try)
		}
		a := send(httpTarget(res.Cluster, ep, res.Forwarded, false))
		if timedOut(res.Timeouts, a.Latency) {
			return local(res, GatewayTimeout, http.StatusGatewayTimeout, fmt.Sprintf("the backend took %s, longer than the rule's timeout", a.Latency), try+1)
		}
		if try < retries && (a.Reset || slices.Contains(res.Retry.Codes, a.Status)) {
			continue
		}
		if a.Reset {
			return local(res, NoHealthyUpstream, http.StatusServiceUnavailable, "the backend reset the connection (upstream connect error or disconnect/reset before headers)", try+1)
		}
		h := a.Headers.Clone()
		if h == nil {
			h = http.Header{}
		}
		status, overridden := overrideBackend(res, a.Status, h)
		finishHeaders(h, res)
		if overridden {
			return Response{Outcome: ResponseOverridden, Status: status, Headers: h, Local: true, Reason: fmt.Sprintf("a response override replaced the backend's %d", a.Status), Attempts: try + 1}
		}
		return Response{Outcome: Routed, Status: a.Status, Headers: h, Body: a.Body, Attempts: try + 1}
	}
}

// local is an answer the gateway makes itself.
func local(res Result, outcome Outcome, status int, reason string, attempts int) Response {
	h := http.Header{}
	if status != 0 {
		h = GatewayHeaders(res)
	}
	return Response{Outcome: outcome, Status: status, Headers: h, Local: true, Reason: reason, Attempts: attempts}
}

// GatewayHeaders are the headers the gateway itself puts on the response
// to a request it answered with res: a redirect's Location, a direct
// response's Content-Type, the CORS headers, and what the rule's response
// header filters set and add. A backend's own headers come under them
// (Exchange).
func GatewayHeaders(res Result) http.Header {
	h := http.Header{}
	switch res.Outcome {
	case Redirected, PathRedirected:
		h.Set("Location", res.Location)
	case CredentialsRequired, ResponseOverridden:
		if res.Location != "" {
			h.Set("Location", res.Location)
		}
	case DirectResponse:
		if d := directResponse(res); d != nil && d.ContentType != "" {
			h.Set("Content-Type", d.ContentType)
		}
	}
	if o := res.Override; o != nil && o.ContentType != "" && o.Location == "" {
		h.Set("Content-Type", o.ContentType)
	}
	finishHeaders(h, res)
	return h
}

// finishHeaders applies the rule's response header changes and CORS
// headers to a response's headers.
func finishHeaders(h http.Header, res Result) {
	ModifyHeaders(h, res.ResponseHeaders)
	for name, values := range res.CORSHeaders {
		h[name] = append([]string(nil), values...)
	}
	ModifyHeaders(h, res.LateResponseHeaders)
}

// mirror sends a copy of the forwarded request to each mirror for its
// share of requests, to one endpoint chosen by rnd; answers are dropped.
func mirror(res Result, send Send, rnd *rand.Rand) {
	for _, m := range res.Mirrors {
		if m.Denominator <= 0 || rnd.Int32N(m.Denominator) >= m.Numerator {
			continue
		}
		if ep, ok := PickEndpoint(m.Target, rnd); ok {
			send(httpTarget(m.Target, ep, res.Forwarded, true))
		}
	}
}

// PickEndpoint chooses one endpoint of cl with rnd (uniformly, as a
// round-robin or random load balancer spreads requests); ok is false when
// cl is nil or has none.
func PickEndpoint(cl *ir.Cluster, rnd *rand.Rand) (ep ir.Endpoint, ok bool) {
	if cl == nil || len(cl.Endpoints) == 0 {
		return ir.Endpoint{}, false
	}
	return cl.Endpoints[rnd.IntN(len(cl.Endpoints))], true
}

// StreamTarget is where a connection that EvaluateConnection forwarded
// (res, for the client's connection c) goes: an endpoint of the chosen
// backend picked by rnd, which sees the client's SNI when the TLS is
// passed through. Without an endpoint the gateway closes the connection,
// and why says so.
func StreamTarget(res ConnectionResult, c Connection, rnd *rand.Rand) (t Target, why string) {
	if res.Outcome != Forwarded {
		return Target{}, res.Reason
	}
	ep, ok := PickEndpoint(res.Cluster, rnd)
	if !ok {
		return Target{}, fmt.Sprintf("backend %s has no endpoint; the connection is closed", res.Backend.Cluster)
	}
	t = Target{Cluster: res.Cluster, Endpoint: ep}
	if res.TLSMode == string(gwv1.TLSModePassthrough) {
		t.ServerName = c.SNI
	}
	return t, ""
}

// httpTarget is an attempt to send fwd to endpoint ep of cl.
func httpTarget(cl *ir.Cluster, ep ir.Endpoint, fwd ForwardedRequest, mirror bool) Target {
	return Target{
		Cluster: cl, Endpoint: ep, ServerName: backendSNI(cl), Request: fwd, Mirror: mirror,
		HTTP2: cl.Protocol == "kubernetes.io/h2c",
	}
}

// backendSNI is the server name the gateway sends to cl's endpoints.
func backendSNI(cl *ir.Cluster) string {
	if cl == nil || cl.TLS == nil {
		return ""
	}
	return cl.TLS.SNI
}

// unhealthy says why a cluster cannot take any request, or "": its
// BackendTLSPolicy makes every connection fail, or the input shows it
// without a ready endpoint.
func unhealthy(cl *ir.Cluster) string {
	switch {
	case cl == nil:
		return ""
	case cl.TLS != nil && cl.TLS.Invalid != "":
		return fmt.Sprintf("no healthy upstream: BackendTLSPolicy %s of cluster %s is invalid (%s), so the gateway cannot open the TLS connection it requires", cl.TLS.Policy, cl.Name, cl.TLS.Invalid)
	case cl.TLS != nil && cl.TLS.Unloadable != "":
		return fmt.Sprintf("no healthy upstream: the data plane cannot load the CA certificates of BackendTLSPolicy %s for cluster %s (%s), so the TLS connection it requires fails", cl.TLS.Policy, cl.Name, cl.TLS.Unloadable)
	case cl.NoReadyEndpoints:
		return fmt.Sprintf("no healthy upstream: the input's EndpointSlices list no ready endpoint for cluster %s", cl.Name)
	}
	return ""
}

// timedOut reports whether an answer that took latency outlasts the
// rule's request or backend request timeout.
func timedOut(t *ir.Timeouts, latency time.Duration) bool {
	if t == nil || latency <= 0 {
		return false
	}
	for _, s := range []string{t.Request, t.BackendRequest} {
		if d, err := time.ParseDuration(s); err == nil && d > 0 && latency >= d {
			return true
		}
	}
	return false
}

// directResponse is the rule's own direct response that answered res, nil
// when the gateway answered for another reason (invalid backends).
func directResponse(res Result) *ir.DirectResponse {
	if res.Route == nil {
		return nil
	}
	return res.Route.Action.DirectResponse
}
