package explain

import (
	"net/http"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// Trace is the whole explanation of one request: the request as gwsim
// understood it, each step the data plane takes, its answer and, when no
// route rule took the request, the near misses. Its JSON field names are a
// stable interface (docs/explain.md); fields are only ever added.
type Trace struct {
	Request RequestView `json:"request"`
	// Outcome is the evaluator's outcome (Routed, Redirected,
	// DirectResponse, CORSPreflight, AuthDenied, RouteNotFound,
	// NoListener, NoGateway).
	Outcome evaluate.Outcome `json:"outcome"`
	// Status is the HTTP status the client sees; 0 when no Gateway listens
	// on the port (the connection is refused). For Routed it is 200, the
	// backend's own answer standing in.
	Status int `json:"status"`
	// GRPCStatus is the gRPC status a gRPC client sees (gRPC calls only).
	GRPCStatus string `json:"grpcStatus,omitempty"`
	// Answer says in one sentence what the client gets.
	Answer   string        `json:"answer"`
	Gateway  *GatewayStep  `json:"gateway,omitempty"`
	Listener *ListenerStep `json:"listener,omitempty"`
	// Connection is how the listener took the connection: TLS, the
	// certificate it serves, and for tcp://, udp:// and tls:// requests
	// the route that took it.
	Connection *ConnectionStep `json:"connection,omitempty"`
	// VirtualHost is the hostname pattern of the virtual host that took
	// the request; empty when none of the listener's covers the host.
	VirtualHost string `json:"virtualHost,omitempty"`
	// Route is the route rule and match that won.
	Route *RouteStep `json:"route,omitempty"`
	// PolicyEffects are what the implementation's policies and the
	// listener's client settings did to the request (policyeffects.go).
	PolicyEffects []PolicyEffect `json:"policyEffects,omitempty"`
	// Losers are the other routes of the virtual host that match the
	// request too, in precedence order, each with the rule that decided.
	Losers  []Loser      `json:"losers,omitempty"`
	Filters []FilterStep `json:"filters,omitempty"`
	// Forwarded is the request as the backend receives it (Routed only).
	Forwarded *Forwarded `json:"forwarded,omitempty"`
	// Location is the redirect's Location header (Redirected only).
	Location string `json:"location,omitempty"`
	// ResponseHeaders are the response header changes the route makes.
	ResponseHeaders *ir.HeaderModifier `json:"responseHeaders,omitempty"`
	// GatewayHeaders are the headers the gateway puts on the response
	// (evaluate.GatewayHeaders): Location, CORS, and what response header
	// filters set and add; the backend's own come on top.
	GatewayHeaders http.Header `json:"gatewayHeaders,omitempty"`
	Mirrors        []Mirror    `json:"mirrors,omitempty"`
	// CORS is the CORS filter's answer to a request with an Origin.
	CORS *CORSStep `json:"cors,omitempty"`
	// Settings are the rule's and the backend's settings that govern a
	// forwarded request: timeouts, retry, session persistence, backend TLS.
	Settings *SettingsStep `json:"settings,omitempty"`
	// Backends are every backendRef of the winning rule.
	Backends []BackendStep `json:"backends,omitempty"`
	// NearMisses are set when no route rule took the request: nearest
	// (fewest failed conditions) first.
	NearMisses []NearMiss `json:"nearMisses,omitempty"`
	// Notes are caveats about the choices gwsim made (which Gateway, when
	// several listen on the port).
	Notes []string `json:"notes,omitempty"`
	// Policies are the implementation's policies that target a step of
	// the trace; their effect is not simulated (see policies.go).
	Policies []PolicyNote `json:"policies,omitempty"`
	// NotSimulated are the implementation-specific filters and backends
	// the request went through, whose effect gwsim does not simulate.
	NotSimulated []NotSimulated `json:"notSimulated,omitempty"`
	// Caveat is set when the answer is not known (see Known): the request
	// went through something not simulated (NotSimulated, Policies).
	Caveat string `json:"caveat,omitempty"`
}

// Succeeded reports whether a route rule took the request and its answer
// is not an error: a backend, a redirect, or a CORS preflight answer; or
// whether a listener forwarded the connection to a backend.
func (t Trace) Succeeded() bool {
	if t.Outcome == evaluate.Forwarded {
		return true // a connection forwarded to a backend
	}
	return t.Route != nil && t.Status > 0 && t.Status < http.StatusBadRequest
}

// CORSStep is what the route's CORS filter does with the request's Origin.
type CORSStep struct {
	Origin string `json:"origin"`
	// Allowed is whether the origin is one the filter allows.
	Allowed bool `json:"allowed"`
	// Preflight is set for an OPTIONS request with
	// Access-Control-Request-Method, which the gateway answers itself.
	Preflight bool `json:"preflight,omitempty"`
	// Headers are the Access-Control-* response headers (none when the
	// origin is not allowed: the browser then blocks the response).
	Headers http.Header `json:"headers,omitempty"`
}

// SettingsStep gathers what governs a forwarded request.
type SettingsStep struct {
	Timeouts           *ir.Timeouts           `json:"timeouts,omitempty"`
	Retry              *ir.Retry              `json:"retry,omitempty"`
	SessionPersistence *ir.SessionPersistence `json:"sessionPersistence,omitempty"`
	// BackendTLS is how the gateway connects to the chosen backend, when a
	// BackendTLSPolicy applies.
	BackendTLS *ir.BackendTLS `json:"backendTLS,omitempty"`
}

// RequestView is the request after defaults (method GET, the scheme's
// port, SNI from Host on HTTPS).
type RequestView struct {
	Scheme string `json:"scheme"`
	Host   string `json:"host"`
	Port   int32  `json:"port"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// NormalizedPath is the path routing matched, when normalisation
	// changed it.
	NormalizedPath string      `json:"normalizedPath,omitempty"`
	Headers        http.Header `json:"headers,omitempty"`
	SNI            string      `json:"sni,omitempty"`
	Gateway        string      `json:"gateway,omitempty"`
	Address        string      `json:"address,omitempty"`
	// GRPC marks a gRPC call.
	GRPC bool `json:"grpc,omitempty"`
	// ClientIP is the client's address, when given.
	ClientIP string `json:"clientIP,omitempty"`
}

// Ref names an object and where its document starts.
type Ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Source is "file:line", empty for objects gwsim assumed.
	Source string `json:"source,omitempty"`
}

// GatewayStep is the Gateway that took the request's port.
type GatewayStep Ref

// ListenerStep is the listener that took the request (listener isolation:
// the listeners on the port are tried most specific hostname first).
type ListenerStep struct {
	Name     string `json:"name"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
	// Hostname is empty when the listener takes every hostname.
	Hostname string `json:"hostname,omitempty"`
	// Object is the Gateway, or the ListenerSet, that declares it.
	Object Ref `json:"object"`
	// By is "host" or "sni": what the listener's hostname was compared with.
	By string `json:"by"`
	// Skipped are the listeners tried before it whose hostname does not
	// cover the request.
	Skipped []SkippedListener `json:"skipped,omitempty"`
}

// SkippedListener is a listener on the port that did not take the request.
type SkippedListener struct {
	Name     string `json:"name"`
	Hostname string `json:"hostname"`
}

// RouteStep is one route rule match.
type RouteStep struct {
	Object Ref `json:"object"`
	Rule   int `json:"rule"`
	// RuleName is the rule's name, when it has one.
	RuleName string   `json:"ruleName,omitempty"`
	Match    int      `json:"match"`
	Spec     ir.Match `json:"spec"`
}

// Loser is a route that matches the request too but lost on precedence.
type Loser struct {
	RouteStep
	// DecidedBy is the precedence rule that put the winner first.
	DecidedBy Decision `json:"decidedBy"`
}

// Decision is a precedence rule that orders two routes: a stable code
// (PathMatchType, LongerPath, Method, MoreHeaders, MoreQueryParams,
// LongerService, LongerMethod, OlderRoute, Alphabetical, EarlierRule,
// EarlierMatch) and a message naming the two sides.
type Decision struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FilterStep is one filter that ran, from the rule or from the chosen
// backendRef.
type FilterStep struct {
	// Scope is "rule" or "backend".
	Scope  string    `json:"scope"`
	Filter ir.Filter `json:"filter"`
}

// Forwarded is the request as the backend receives it.
type Forwarded struct {
	Host string `json:"host"`
	Path string `json:"path"`
	// NormalizedPath is the path routing matched, when normalisation
	// changed it.
	NormalizedPath string      `json:"normalizedPath,omitempty"`
	Headers        http.Header `json:"headers,omitempty"`
	// Changes are what the filters did to the client's request, in header
	// name order after the host and path.
	Changes []Change `json:"changes,omitempty"`
}

// Change is one difference between the client's and the forwarded request.
type Change struct {
	// What is "host", "path" or "header".
	What string `json:"what"`
	// Name is the header name (What == "header").
	Name string `json:"name,omitempty"`
	// Op is "set", "added" or "removed".
	Op    string `json:"op"`
	From  string `json:"from,omitempty"`
	Value string `json:"value,omitempty"`
}

// BackendStep is one backendRef of the winning rule.
type BackendStep struct {
	Cluster string `json:"cluster,omitempty"`
	Weight  int32  `json:"weight"`
	// Percent is the backend's share of the rule's requests.
	Percent float64 `json:"percent"`
	// Chosen marks the backend this request goes to (the evaluator's
	// deterministic pick, seed 0).
	Chosen bool `json:"chosen,omitempty"`
	// Invalid is the backend's ResolvedRefs reason: its share gets a 500.
	Invalid string `json:"invalid,omitempty"`
	// BackendRef is the object the backendRef names (a Service, usually),
	// with no source when it is not in the input.
	BackendRef *Ref `json:"backendRef,omitempty"`
	// Port is the backendRef's port.
	Port      int32         `json:"port,omitempty"`
	Endpoints []ir.Endpoint `json:"endpoints,omitempty"`
	// Address is the cluster-set DNS name of a ServiceImport backend (see
	// ir.Cluster.Address).
	Address string `json:"address,omitempty"`
	// NoReadyEndpoints is set when the input's EndpointSlices list no
	// ready endpoint for it; without EndpointSlices in the input, no
	// endpoints are listed and gwsim assumes the cluster has some.
	NoReadyEndpoints bool `json:"noReadyEndpoints,omitempty"`
	// Extension is set for an implementation-specific backend, whose
	// effect is not simulated: "resolved" (in the input) or "assumed".
	Extension string      `json:"extension,omitempty"`
	Filters   []ir.Filter `json:"filters,omitempty"`
}

// Mirror is one copy of the forwarded request: the cluster and the share
// of requests (numerator/denominator) that are mirrored.
type Mirror struct {
	Cluster     string `json:"cluster"`
	Numerator   int32  `json:"numerator"`
	Denominator int32  `json:"denominator"`
}

// NearMiss is one object that could have taken the request and the
// conditions it failed.
type NearMiss struct {
	// Object is the route, or the Gateway or ListenerSet of a listener.
	Object Ref `json:"object"`
	// ParentRef is the index of the route's parentRef this miss is about.
	ParentRef *int `json:"parentRef,omitempty"`
	// Rule and Match are the route's nearest rule and match, when known.
	Rule     *int   `json:"rule,omitempty"`
	RuleName string `json:"ruleName,omitempty"`
	Match    *int   `json:"match,omitempty"`
	// Spec is that match, for routes.
	Spec *ir.Match `json:"spec,omitempty"`
	// Listener is the listener a listener or port miss is about.
	Listener string `json:"listener,omitempty"`
	Failed   []Miss `json:"failed"`
}

// Miss is one failed condition.
type Miss struct {
	Condition Condition `json:"condition"`
	// Reason is the status reason, for Attached, Gateway and Listener.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
	// Source is the file:line of the finding that says why, for a route
	// left out of every data plane (rejected, not served, no parentRefs).
	Source string `json:"source,omitempty"`
}

// Condition names what a near miss failed.
type Condition string

// The conditions a near miss can fail. Path, Method, Header and QueryParam
// are the evaluator's match conditions.
const (
	// CondGateway: the route's parent Gateway (or ListenerSet) does not
	// exist, is not gwsim's, or is not accepted.
	CondGateway Condition = "Gateway"
	// CondAttached: the route's status says the parentRef is not Accepted.
	CondAttached Condition = "Attached"
	// CondListener: the route is attached, but to listeners other than the
	// one that took the request; or a listener on the port is not ready.
	CondListener Condition = "Listener"
	// CondPort: a Gateway that does not listen on the request's port.
	CondPort Condition = "Port"
	// CondAddress: a Gateway that does not have the request's --address.
	CondAddress Condition = "Address"
	// CondListenerHostname: a listener on the port whose hostname does not
	// cover the request.
	CondListenerHostname Condition = "ListenerHostname"
	// CondHostname: the route's hostnames do not cover the request host, or
	// a more specific virtual host took the request.
	CondHostname Condition = "Hostname"
	// CondSNI: a TLSRoute whose SNI pattern does not cover the client's.
	CondSNI Condition = "SNI"
	// CondSuperseded: an L4 route that an older one on the same listener
	// (and SNI) supersedes.
	CondSuperseded Condition = "Superseded"
	CondPath                 = Condition(evaluate.CondPath)
	CondMethod               = Condition(evaluate.CondMethod)
	CondHeader               = Condition(evaluate.CondHeader)
	CondQueryParam           = Condition(evaluate.CondQueryParam)
)
