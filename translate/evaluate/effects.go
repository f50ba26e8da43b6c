package evaluate

import (
	"net/http"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

const (
	// CORSPreflight means a CORS filter answered a preflight request itself
	// (204, with the Access-Control-* headers when the origin is allowed).
	CORSPreflight Outcome = "CORSPreflight"
	// AuthDenied means an ExternalAuth filter whose service cannot be
	// resolved failed closed (403, Envoy ext_authz's status on error).
	AuthDenied Outcome = "AuthDenied"
)

// Effects are what the matched rule does besides choosing the response:
// copies of the request, CORS response headers, and the policies that
// govern the forwarded request.
type Effects struct {
	// Mirrors receive a copy of the forwarded request (as the backend
	// receives it) for their share of requests; their responses are
	// ignored. Invalid mirrors and 0% mirrors are left out.
	Mirrors []Mirror
	// CORSHeaders are the Access-Control-* headers the gateway puts on the
	// response (nil when the route has no CORS filter or the origin is not
	// allowed).
	CORSHeaders http.Header
	// ExternalAuth is the service consulted before forwarding. gwsim cannot
	// know its answer and assumes it allows the request.
	ExternalAuth *ir.ExternalAuth
	// Timeouts, Retry and SessionPersistence govern a forwarded request;
	// nil when the rule leaves them to the gateway or nothing is forwarded.
	Timeouts           *ir.Timeouts
	Retry              *ir.Retry
	SessionPersistence *ir.SessionPersistence
	// NotSimulated are the implementation-specific objects the request
	// went through (ExtensionRef filters, and the chosen backend when it
	// is one) whose effect gwsim does not simulate: the answer is then
	// not known, only what the simulated part does.
	NotSimulated []Extension
	// PolicySteps are what the implementation's policies and the
	// listener's client settings did, in order (policy.go).
	PolicySteps []PolicyStep
	// LateResponseHeaders are the listener's changes to every response,
	// made last.
	LateResponseHeaders *ir.HeaderModifier
	// Override is the response override that replaced the gateway's own
	// answer.
	Override *ir.ResponseOverride
}

// Extension is an implementation-specific object a request went through.
type Extension struct {
	// Use is "filter", "backend" or "policy".
	Use string
	// Field is the policy field not simulated ("" for a whole policy).
	Field string
	// Kind is group/Kind; Namespace and Name name the object.
	Kind, Namespace, Name string
	// Resolution is "resolved" (the object is in the input) or
	// "assumed".
	Resolution string
}

// addExtensionFilter records a custom filter the request went through,
// unless it is unresolved (its requests get a 500, a known answer).
func (e *Effects) addExtensionFilter(f ir.Filter, ns string) {
	if !f.ExtensionRef.NotSimulated() {
		return
	}
	x := f.ExtensionRef
	e.NotSimulated = append(e.NotSimulated, Extension{Use: "filter", Kind: x.Group + "/" + x.Kind, Namespace: ns, Name: x.Name, Resolution: x.Resolution})
}

// addExtensionBackend records the chosen backend's cluster when it stands
// for an implementation-specific object.
func (e *Effects) addExtensionBackend(c *ir.Cluster) {
	if c == nil || c.Extension == "" {
		return
	}
	ns, name, _ := strings.Cut(c.Service, "/")
	e.NotSimulated = append(e.NotSimulated, Extension{Use: "backend", Kind: c.Kind, Namespace: ns, Name: name, Resolution: c.Extension})
}

// Mirror is one mirrored copy: the cluster and the share of requests
// (Numerator/Denominator) that are mirrored.
type Mirror struct {
	Cluster     string
	Numerator   int32
	Denominator int32
	// Target is the cluster's spec (its endpoints and TLS).
	Target *ir.Cluster
}

// addMirror records a mirror filter's copy unless it sends nothing.
func (e *Effects) addMirror(m *ir.RequestMirror) {
	if m.Invalid != "" || m.Cluster == "" || m.Numerator <= 0 {
		return
	}
	e.Mirrors = append(e.Mirrors, Mirror{Cluster: m.Cluster, Numerator: m.Numerator, Denominator: m.Denominator})
}

// mergeHeaderModifiers appends b's changes after a's, so that a backend's
// response filter runs after the rule's.
func mergeHeaderModifiers(a, b *ir.HeaderModifier) *ir.HeaderModifier {
	if a == nil {
		return b
	}
	return &ir.HeaderModifier{
		Set:    append(append([]ir.Header(nil), a.Set...), b.Set...),
		Add:    append(append([]ir.Header(nil), a.Add...), b.Add...),
		Remove: append(append([]string(nil), a.Remove...), b.Remove...),
	}
}
