package ir

// Policies are what an implementation's policies do to the requests a
// route rule takes (Envoy Gateway's SecurityPolicy, BackendTrafficPolicy,
// EnvoyExtensionPolicy, EnvoyPatchPolicy), as the data plane applies
// them: ahead of the rule's own filters and action, in the order of
// Envoy's HTTP filter chain (fault, CORS, external authorization, API
// key, basic auth, OIDC, JWT, authorization), with the response overrides
// applied to the answer last. Each effect names the policy it comes from.
// Nil fields are effects no policy sets.
type Policies struct {
	FaultAbort *FaultAbort    `json:"faultAbort,omitempty"`
	FaultDelay *FaultDelay    `json:"faultDelay,omitempty"`
	CORS       *PolicyCORS    `json:"cors,omitempty"`
	ExtAuth    *PolicyExtAuth `json:"extAuth,omitempty"`
	// Credentials are the authentications that demand credentials, in
	// the order Envoy checks them (API key, basic auth, OIDC, JWT).
	Credentials   []CredentialCheck `json:"credentials,omitempty"`
	Authorization *Authorization    `json:"authorization,omitempty"`
	// ResponseOverrides replace an answer whose status matches, the first
	// that matches winning.
	ResponseOverrides []ResponseOverride `json:"responseOverrides,omitempty"`
	Timeouts          *PolicyTimeouts    `json:"timeouts,omitempty"`
	Retry             *PolicyRetry       `json:"retry,omitempty"`
	// NotSimulated are the policies and fields whose effect gwsim does
	// not simulate, in policy then field order.
	NotSimulated []PolicyField `json:"notSimulated,omitempty"`
	// Refused are the policies that would apply here but whose spec the
	// implementation could not translate: none of their effects apply.
	Refused []RefusedPolicy `json:"refused,omitempty"`
}

// RefusedPolicy is a policy the implementation refused for its spec
// (Accepted=False, Invalid) where it would apply.
type RefusedPolicy struct {
	Policy PolicyRef `json:"policy"`
	// Message is the Invalid condition's message.
	Message string `json:"message"`
	// FailsClosed is true where the implementation answers every request
	// here with a 500 instead, so that no request passes unguarded.
	FailsClosed bool `json:"failsClosed,omitempty"`
}

// PolicyRef names a policy. Like Origin it holds no file:line, so that
// the IR does not depend on how manifests are split into files.
type PolicyRef struct {
	// Kind is group/Kind.
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// PolicyField is a policy field (or a whole policy, Field empty) whose
// effect gwsim does not simulate. Decides is set when it can decide the
// answer a request gets (an external authorization, a rate limit, a
// patch to Envoy's configuration): the answer is then not known.
type PolicyField struct {
	Policy  PolicyRef `json:"policy"`
	Field   string    `json:"field,omitempty"`
	What    string    `json:"what"`
	Decides bool      `json:"decides,omitempty"`
}

// FaultAbort answers the request with Status instead of forwarding it, for
// Percent of the requests (Envoy's fault filter).
type FaultAbort struct {
	Policy PolicyRef `json:"policy"`
	Status int       `json:"status,omitempty"`
	// GRPCStatus is the gRPC status code of an abort given as one.
	GRPCStatus *int32  `json:"grpcStatus,omitempty"`
	Percent    float64 `json:"percent"`
}

// FaultDelay holds the request for Delay before forwarding it, for
// Percent of the requests.
type FaultDelay struct {
	Policy  PolicyRef `json:"policy"`
	Delay   string    `json:"delay"`
	Percent float64   `json:"percent"`
}

// PolicyCORS is a policy's CORS. Unlike the HTTPRoute filter's, a
// preflight is answered 200 (Envoy's CORS filter), from an origin that is
// not allowed as well, without the Access-Control-* headers.
type PolicyCORS struct {
	Policy PolicyRef `json:"policy"`
	CORS   CORS      `json:"cors"`
}

// PolicyExtAuth asks an external service whether the request may pass;
// its answer is not known offline.
type PolicyExtAuth struct {
	Policy PolicyRef `json:"policy"`
	// Service is the service consulted, "namespace/name:port" or a
	// Backend's name, as the policy names it.
	Service string `json:"service,omitempty"`
	// Protocol is GRPC or HTTP.
	Protocol string `json:"protocol,omitempty"`
}

// CredentialCheck is an authentication that demands credentials: a request
// that does not carry them gets Status (Location is the OIDC login
// redirect's); one that carries them is forwarded, gwsim being unable to
// verify them.
type CredentialCheck struct {
	Policy PolicyRef `json:"policy"`
	// Type is APIKey, BasicAuth, OIDC or JWT.
	Type string `json:"type"`
	// Sources are where the credential is read from, each "header NAME",
	// "header NAME prefix P" (the value starts with P, then spaces),
	// "query NAME" or "cookie NAME" (a NAME ending in "*" matches by
	// prefix); a request carries the credential when one is present.
	Sources []string `json:"sources"`
	// Optional lets a request without the credential through (JWT's
	// optional).
	Optional bool `json:"optional,omitempty"`
	// FailOpen lets a request through with a credential that is not even
	// well formed as well (JWT's failOpen).
	FailOpen bool   `json:"failOpen,omitempty"`
	Status   int    `json:"status"`
	Location string `json:"location,omitempty"`
	// Providers are the JWT providers' names, which authorization rules
	// name.
	Providers []string `json:"providers,omitempty"`
}

// Authorization allows or denies the request by the first rule that
// matches it, else by DefaultAction (Envoy's RBAC filter; a denial is a
// 403).
type Authorization struct {
	Policy        PolicyRef           `json:"policy"`
	Rules         []AuthorizationRule `json:"rules,omitempty"`
	DefaultAction string              `json:"defaultAction"`
}

// AuthorizationRule matches when every condition it sets holds. Lists of
// values match when one value matches; Headers and Claims must all match,
// each Value holding the values it accepts one per line.
type AuthorizationRule struct {
	Name string `json:"name,omitempty"`
	// Action is Allow or Deny.
	Action      string       `json:"action"`
	Methods     []string     `json:"methods,omitempty"`
	Path        *ValueMatch  `json:"path,omitempty"`
	ClientCIDRs []string     `json:"clientCIDRs,omitempty"`
	Headers     []ValueMatch `json:"headers,omitempty"`
	// JWTProvider, Claims and Scopes match the claims of the request's
	// JWT (the claim name is a dot path; Type is String or StringArray).
	JWTProvider string       `json:"jwtProvider,omitempty"`
	Claims      []ValueMatch `json:"claims,omitempty"`
	Scopes      []string     `json:"scopes,omitempty"`
	// NotSimulated names conditions gwsim cannot evaluate (a CEL
	// expression, a geolocation): a request that meets every other
	// condition has an unknown answer.
	NotSimulated []string `json:"notSimulated,omitempty"`
}

// ResponseOverride replaces an answer whose status is in Codes: with a
// response (Status 0 keeps the answer's status) or a redirect.
// Source is All, Local (answers the gateway makes) or Backend.
type ResponseOverride struct {
	Policy      PolicyRef    `json:"policy"`
	Codes       []StatusSpan `json:"codes"`
	Source      string       `json:"source"`
	Status      int          `json:"status,omitempty"`
	ContentType string       `json:"contentType,omitempty"`
	Body        string       `json:"body,omitempty"`
	Location    string       `json:"location,omitempty"`
	// HeaderMatch is set when the override also matches response headers,
	// which gwsim does not simulate on the gateway's own answers.
	HeaderMatch bool `json:"headerMatch,omitempty"`
}

// StatusSpan is a status code range, From to To inclusive.
type StatusSpan struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// PolicyTimeouts are a policy's timeouts, as written.
type PolicyTimeouts struct {
	Policy         PolicyRef `json:"policy"`
	Request        string    `json:"request,omitempty"`
	ConnectionIdle string    `json:"connectionIdle,omitempty"`
	Connect        string    `json:"connect,omitempty"`
}

// PolicyRetry is a policy's retry policy, as written.
type PolicyRetry struct {
	Policy   PolicyRef `json:"policy"`
	Retries  int32     `json:"retries"`
	On       []string  `json:"on,omitempty"`
	Codes    []int     `json:"codes,omitempty"`
	PerRetry string    `json:"perRetryTimeout,omitempty"`
}

// ClientSettings are how a listener reads requests before routing them
// (Envoy's HTTP connection manager, as Envoy Gateway configures it and a
// ClientTrafficPolicy changes it). Policy is empty when the defaults apply.
type ClientSettings struct {
	Policy *PolicyRef `json:"policy,omitempty"`
	// MergeSlashes merges runs of slashes in the path.
	MergeSlashes bool `json:"mergeSlashes"`
	// EscapedSlashes is what a path with %2F or %5C gets: KeepUnchanged,
	// RejectRequest (400), UnescapeAndRedirect (a 307 to the unescaped
	// path) or UnescapeAndForward.
	EscapedSlashes string `json:"escapedSlashes"`
	// HeadersWithUnderscores is what a request header whose name has an
	// underscore gets: Allow, RejectRequest (400) or DropHeader.
	HeadersWithUnderscores string `json:"headersWithUnderscores"`
	// EarlyRequestHeaders change the request before routing.
	EarlyRequestHeaders *HeaderModifier `json:"earlyRequestHeaders,omitempty"`
	// LateResponseHeaders change every response last.
	LateResponseHeaders *HeaderModifier `json:"lateResponseHeaders,omitempty"`
	NotSimulated        []PolicyField   `json:"notSimulated,omitempty"`
	// Refused is the ClientTrafficPolicy that would configure the
	// listener but was refused for its spec: the listener keeps the
	// implementation's defaults.
	Refused *RefusedPolicy `json:"refused,omitempty"`
}
