package ir

// RequestMirror sends a copy of a share of the requests to Cluster and
// ignores the copy's response (Envoy's request_mirror_policies). The copy is
// the request as the backend receives it, after every request filter. The
// share is Numerator/Denominator; the spec's percent p is p/100 and its
// default is 100%.
type RequestMirror struct {
	Cluster     string `json:"cluster,omitempty"`
	Numerator   int32  `json:"numerator"`
	Denominator int32  `json:"denominator"`
	// Invalid is the mirror backend's ResolvedRefs reason when it cannot be
	// resolved: the spec then drops the mirror (nothing is mirrored) and the
	// route's ResolvedRefs is False; the mirrored request itself is
	// unaffected.
	Invalid string `json:"invalid,omitempty"`
}

// CORS is a rule's cross-origin policy, the fields Envoy's CorsPolicy needs.
// A preflight (OPTIONS with Origin and Access-Control-Request-Method) is
// answered by the gateway; other requests from an allowed origin get the
// Access-Control-* response headers. Lists keep the order written.
type CORS struct {
	// AllowOrigins are "scheme://host[:port]" patterns; "*" in the host
	// matches any labels to its left, and "*" alone matches every origin.
	AllowOrigins     []string `json:"allowOrigins,omitempty"`
	AllowMethods     []string `json:"allowMethods,omitempty"`
	AllowHeaders     []string `json:"allowHeaders,omitempty"`
	ExposeHeaders    []string `json:"exposeHeaders,omitempty"`
	AllowCredentials bool     `json:"allowCredentials,omitempty"`
	// MaxAge is Access-Control-Max-Age in seconds (the spec's default, 5,
	// when the route leaves it out); -1 sends none (a policy's CORS
	// without maxAge).
	MaxAge int32 `json:"maxAge"`
}

// ExternalAuth sends each request's details to an authorization service
// (Envoy's ext_authz) before it is forwarded. The service decides at run
// time; the filter fails closed, so a service that cannot be resolved
// (Invalid set) denies every request it would see.
type ExternalAuth struct {
	// Protocol is GRPC or HTTP.
	Protocol string `json:"protocol"`
	Cluster  string `json:"cluster,omitempty"`
	Invalid  string `json:"invalid,omitempty"`
	// Path prefixes the request path sent to an HTTP service.
	Path string `json:"path,omitempty"`
	// AllowedRequestHeaders are the request headers sent to the service
	// (empty: all for GRPC, the spec's fixed set for HTTP).
	AllowedRequestHeaders []string `json:"allowedRequestHeaders,omitempty"`
	// AllowedResponseHeaders are the service's response headers copied onto
	// the forwarded request (empty: all but Host/Authority).
	AllowedResponseHeaders []string `json:"allowedResponseHeaders,omitempty"`
	// ForwardBodyMaxSize is how many body bytes are sent (0: none).
	ForwardBodyMaxSize int `json:"forwardBodyMaxSize,omitempty"`
}

// ExtensionRef is a custom filter, an implementation's own kind. gwsim
// does not simulate its effect. Resolution says how the reference
// resolved: "resolved" (the object is in the input) or "assumed" (the
// open world assumes it), and requests pass through it unchanged, the
// answer not being known; or "unresolved", and the spec forbids skipping
// it: the requests it would process are answered with a 500 (the rule's
// DirectResponse, or the backend's share when the filter is on a
// backendRef).
type ExtensionRef struct {
	Group      string `json:"group"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Resolution string `json:"resolution"`
}

// NotSimulated reports whether requests pass through the filter with an
// effect gwsim does not know: it resolved, to an object in the input or an
// assumed one.
func (e *ExtensionRef) NotSimulated() bool {
	return e != nil && (e.Resolution == "resolved" || e.Resolution == "assumed")
}

// Timeouts are a rule's timeouts as Gateway API durations (GEP-2257), as
// written. Request bounds the whole transaction, retries included (Envoy's
// route timeout); BackendRequest bounds each request to a backend (Envoy's
// per-try timeout). "0s" disables a timeout; an empty field leaves the
// gateway's default.
type Timeouts struct {
	Request        string `json:"request,omitempty"`
	BackendRequest string `json:"backendRequest,omitempty"`
}

// Retry is a rule's retry policy. Requests are retried on connection
// errors (connect failure, reset) and on the listed response codes.
// Attempts is the number of retries after the first try (the conformance
// tests count it so); 0 and an empty Backoff mean the route leaves them to
// the gateway.
type Retry struct {
	Codes    []int  `json:"codes,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	Backoff  string `json:"backoff,omitempty"`
}

// SessionPersistence pins a client to the backend that served its first
// request, by a cookie or a header named SessionName.
type SessionPersistence struct {
	// Type is Cookie (the spec's default) or Header.
	Type string `json:"type"`
	// SessionName is empty when the route leaves the name to the gateway.
	SessionName     string `json:"sessionName,omitempty"`
	AbsoluteTimeout string `json:"absoluteTimeout,omitempty"`
	// CookieLifetime is Session (the default for cookies) or Permanent;
	// empty for header-based persistence.
	CookieLifetime string `json:"cookieLifetime,omitempty"`
}
