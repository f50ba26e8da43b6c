// Package ir is gwsim's data-plane model: what a conformant gateway would
// program, shaped so that a reader can map it onto Envoy's listeners, route
// configurations and clusters. Every slice is sorted by the translator, so
// rendering an IR twice, or from manifests in another order, gives the same
// bytes. Every route carries its Origin so that each line traces back to YAML.
package ir

// IR is the whole data plane: one entry per accepted Gateway.
type IR struct {
	Gateways []Gateway `json:"gateways"`
}

// RouteElsewhere is an HTTPRoute or GRPCRoute that no data plane of the
// input places: its parentRefs name only Gateways that are not in the
// input (the open world assumes them elsewhere), or it names none. Its
// rules are translated as they would be on any listener, in the route's
// order (not sorted by precedence: no virtual host is known).
type RouteElsewhere struct {
	// Origin names the route (Rule and Match are 0).
	Origin Origin `json:"origin"`
	// Parents are the Gateways it names, "namespace/name", with
	// "#sectionName" and ":port" when the parentRef sets them; empty when
	// it names none.
	Parents   []string `json:"parents,omitempty"`
	Hostnames []string `json:"hostnames,omitempty"`
	Routes    []Route  `json:"routes,omitempty"`
}

// Gateway is one accepted Gateway, keyed "namespace/name".
type Gateway struct {
	Name      string     `json:"name"`
	Class     string     `json:"class"`
	Listeners []Listener `json:"listeners"`
	Clusters  []Cluster  `json:"clusters,omitempty"`
}

// Listener is one port of a Gateway with every accepted Gateway listener
// merged onto it, sorted by port.
type Listener struct {
	Port int32 `json:"port"`
	// Protocol is the listeners' protocol; listeners of compatible protocols
	// sharing the port (HTTPS and TLS) are joined with "+".
	Protocol string `json:"protocol"`
	// Listeners are the Gateway listeners merged here, most specific
	// hostname first: a request is handled by the first whose hostname
	// covers it (listener isolation), then by that listener's virtual hosts.
	Listeners    []GatewayListener `json:"listeners"`
	TLS          []TLS             `json:"tls,omitempty"`
	VirtualHosts []VirtualHost     `json:"virtualHosts,omitempty"`
	// TLSRoutes are the SNI filter chains of the port's TLS listeners (see
	// L4Route): a connection is taken by the listener whose hostname covers
	// its SNI most specifically, then by that listener's first route whose
	// SNI covers it, so they are sorted exact SNI first, then wildcards with
	// more labels, then the catch-all.
	TLSRoutes []L4Route `json:"tlsRoutes,omitempty"`
	// Forward is the port-level forwarding of TCP and UDP listeners, which
	// have nothing but the port to tell connections apart; sorted by
	// listener, the route that takes the traffic first.
	Forward []L4Route `json:"forward,omitempty"`
}

// GatewayListener is one listener merged onto a port: a spec.listeners
// entry of the Gateway, or of a ListenerSet attached to it.
type GatewayListener struct {
	// Name identifies the listener on its Gateway, as VirtualHost, TLS and
	// L4Route refer to it: the Gateway's own listeners keep their name; a
	// ListenerSet's is "namespace/listenerset/name", because listener
	// names are unique only within the object that declares them.
	Name     string `json:"name"`
	Protocol string `json:"protocol"`
	// Hostname is empty when the listener matches every hostname.
	Hostname string `json:"hostname,omitempty"`
	// ListenerSet is "namespace/name" of the ListenerSet the listener comes
	// from; empty for the Gateway's own listeners.
	ListenerSet string `json:"listenerSet,omitempty"`
	// Client is how the listener reads requests before routing them, when
	// the implementation's profile says (policy.go); nil for the generic
	// model (the path normalised, headers as sent).
	Client *ClientSettings `json:"client,omitempty"`
}

// TLS is one listener's TLS settings on a port.
type TLS struct {
	Listener     string   `json:"listener"`
	Mode         string   `json:"mode"`
	SNI          string   `json:"sni,omitempty"`
	Certificates []string `json:"certificates,omitempty"`
	// FrontendValidation, when set, makes clients present a certificate
	// (see FrontendValidation).
	FrontendValidation *FrontendValidation `json:"frontendValidation,omitempty"`
}

// VirtualHost is one effective hostname of one Gateway listener: exact
// hostnames first, then wildcards with more labels first, then the
// catch-all "*"; ties by listener name.
type VirtualHost struct {
	Hostname string  `json:"hostname"`
	Listener string  `json:"listener"`
	Routes   []Route `json:"routes"`
}

// Route is one route match in precedence order within its virtual host.
type Route struct {
	Match   Match    `json:"match"`
	Filters []Filter `json:"filters,omitempty"`
	Action  Action   `json:"action"`
	Origin  Origin   `json:"origin"`
	// Policies are what an implementation's policies do to the rule's
	// requests (policy.go); nil when none applies.
	Policies *Policies `json:"policies,omitempty"`
}

// Match is the request a route matches. Empty fields match anything.
type Match struct {
	PathType    string       `json:"pathType"`
	Path        string       `json:"path"`
	Method      string       `json:"method,omitempty"`
	Headers     []ValueMatch `json:"headers,omitempty"`
	QueryParams []ValueMatch `json:"queryParams,omitempty"`
}

// ValueMatch matches one header or query parameter.
type ValueMatch struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// Filter is one Gateway API filter applied in order before the action.
// Exactly one of the typed fields is set, named by Type.
type Filter struct {
	Type                   string          `json:"type"`
	RequestHeaderModifier  *HeaderModifier `json:"requestHeaderModifier,omitempty"`
	ResponseHeaderModifier *HeaderModifier `json:"responseHeaderModifier,omitempty"`
	URLRewrite             *URLRewrite     `json:"urlRewrite,omitempty"`
	RequestMirror          *RequestMirror  `json:"requestMirror,omitempty"`
	CORS                   *CORS           `json:"cors,omitempty"`
	ExternalAuth           *ExternalAuth   `json:"externalAuth,omitempty"`
	ExtensionRef           *ExtensionRef   `json:"extensionRef,omitempty"`
}

// HeaderModifier sets, adds and removes headers; names are kept as written
// and compared case-insensitively by the data plane.
type HeaderModifier struct {
	Set    []Header `json:"set,omitempty"`
	Add    []Header `json:"add,omitempty"`
	Remove []string `json:"remove,omitempty"`
}

// Header is a header name and value.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// URLRewrite rewrites the request before it is forwarded.
type URLRewrite struct {
	Hostname string `json:"hostname,omitempty"`
	// HostnameFromHeader sets the host to the value of this request
	// header, when the request has it.
	HostnameFromHeader string `json:"hostnameFromHeader,omitempty"`
	// HostnameFromBackend sets the host to the hostname of the endpoint
	// the request is forwarded to (Envoy's auto host rewrite); an
	// endpoint given by IP address leaves the host as it is.
	HostnameFromBackend bool `json:"hostnameFromBackend,omitempty"`
	// PathType is ReplaceFullPath, ReplacePrefixMatch or
	// ReplaceRegexMatch; empty keeps the path.
	PathType string `json:"pathType,omitempty"`
	Path     string `json:"path,omitempty"`
	// PathRegex is the RE2 pattern of ReplaceRegexMatch, whose every
	// match in the path is replaced by Path (\1 names a group).
	PathRegex string `json:"pathRegex,omitempty"`
}

// Action is what happens to a matched request. A direct response, when
// set, answers it (a 500 when no backend can take any request, or when a
// filter the rule needs cannot be resolved), and Backends still lists every
// backendRef so that a reader sees why; otherwise a redirect answers the
// request; otherwise the request is forwarded to Backends by weight, with
// invalid backends' shares answered by a 500. Timeouts, Retry and
// SessionPersistence apply to forwarded requests; nil means the rule does
// not set them and the gateway's defaults apply.
type Action struct {
	Redirect           *Redirect           `json:"redirect,omitempty"`
	DirectResponse     *DirectResponse     `json:"directResponse,omitempty"`
	Backends           []WeightedBackend   `json:"backends,omitempty"`
	Timeouts           *Timeouts           `json:"timeouts,omitempty"`
	Retry              *Retry              `json:"retry,omitempty"`
	SessionPersistence *SessionPersistence `json:"sessionPersistence,omitempty"`
}

// Redirect answers with a redirect; empty fields keep the request's value.
type Redirect struct {
	Scheme     string `json:"scheme,omitempty"`
	Hostname   string `json:"hostname,omitempty"`
	Port       int32  `json:"port,omitempty"`
	PathType   string `json:"pathType,omitempty"`
	Path       string `json:"path,omitempty"`
	StatusCode int    `json:"statusCode"`
}

// DirectResponse answers without a backend, as the spec requires for rules
// whose backends are all invalid (500).
type DirectResponse struct {
	Status int    `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Body and ContentType are the answer's body and Content-Type when a
	// filter gives them (an implementation's direct response filter).
	Body        string `json:"body,omitempty"`
	ContentType string `json:"contentType,omitempty"`
}

// WeightedBackend is one backendRef. Invalid backends keep their weight and
// receive a 500 for their share of requests, as the spec requires.
type WeightedBackend struct {
	Cluster string `json:"cluster,omitempty"`
	Weight  int32  `json:"weight"`
	// Invalid says why this backend cannot be reached (its ResolvedRefs reason).
	Invalid string `json:"invalid,omitempty"`
	// Ref names an invalid backend, which has no Cluster, as its backendRef
	// reads: "namespace/name:port" (":port" left out when the ref sets
	// none), preceded by "group/Kind " when it is not a core Service. It
	// lets a reader see which reference is broken. Empty on valid backends.
	Ref string `json:"ref,omitempty"`
	// Filters run, after the rule's filters, only on requests forwarded to
	// this backend (HTTPBackendRef.filters).
	Filters []Filter `json:"filters,omitempty"`
}

// Origin traces a route back to the object, rule and match it came from.
// It holds no file:line on purpose: the IR must be byte-identical however
// the manifests are split across files; findings and explain traces, which
// point users at YAML, look the object's source up instead.
type Origin struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Rule      int    `json:"rule"`
	Match     int    `json:"match"`
}

// Cluster is one Service port that routes forward to, named
// "namespace/service:port" ("namespace/service:port/UDP" for a UDP port).
type Cluster struct {
	Name string `json:"name"`
	// Kind is "" for a core Service, multicluster.x-k8s.io/ServiceImport
	// for a ServiceImport (endpoints across a ClusterSet, GEP-1748), else
	// the group/Kind of the implementation-specific backend the cluster
	// stands for (a vendor extension gwsim does not simulate: it has no
	// endpoints).
	Kind string `json:"kind,omitempty"`
	// Extension is set for the cluster of an implementation-specific
	// backend, whose effect gwsim does not simulate: "resolved" when the
	// object is in the input, "assumed" when the open world assumes it.
	Extension string `json:"extension,omitempty"`
	// Service is the "namespace/name" of the Service, of the
	// ServiceImport, or of the extension object.
	Service string `json:"service"`
	// Address is set for a ServiceImport's cluster only: the cluster-set
	// DNS name (<name>.<namespace>.svc.clusterset.local) that reaches
	// the imported Service's endpoints in every cluster that exports it.
	Address   string     `json:"address,omitempty"`
	Port      int32      `json:"port"`
	Protocol  string     `json:"protocol,omitempty"`
	Endpoints []Endpoint `json:"endpoints,omitempty"`
	// NoReadyEndpoints is set when the input holds EndpointSlices of the
	// Service and none lists a ready endpoint for this port: the gateway
	// has nowhere to send the cluster's traffic. Without EndpointSlices in
	// the input the endpoints are unknown, and assumed to exist.
	NoReadyEndpoints bool `json:"noReadyEndpoints,omitempty"`
	// TLS, when set, makes the gateway connect to the endpoints over TLS
	// (a BackendTLSPolicy applies); nil means plaintext.
	TLS *BackendTLS `json:"tls,omitempty"`
}

// Endpoint is one ready address of a cluster.
type Endpoint struct {
	Address string `json:"address"`
	Port    int32  `json:"port"`
}
