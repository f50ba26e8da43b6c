// Package routetest runs a route table test file: requests written as
// URLs, each with what the gateway should do with it (the backend, the
// route rule, the status, the redirect, the rewritten request), checked
// against the traces of package explain. It also says which route rules
// and matches no test exercised. It is pure: the cases file's bytes and an
// explain.Input in, a Report out; reading files and printing belong to the
// command line.
package routetest

import (
	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/explain"
)

// Suite is a parsed cases file.
type Suite struct {
	Tests []Case
}

// Case is one test: a request and what should happen to it.
type Case struct {
	Name string
	// Source is where the test starts in the cases file.
	Source diag.Source
	// Request is the test's request, built and ready to trace.
	Request explain.Request
	Expect  Expect
}

// Expect is what a test checks; only the fields that are set are checked.
type Expect struct {
	// Outcome is the evaluator's outcome (Routed, Misdirected,
	// ConnectionFailed, Forwarded, ...).
	Outcome string
	// Status is the HTTP status the client sees; 0 means no HTTP answer
	// (connection refused, TLS handshake failed).
	Status *int
	// Location is the redirect's Location header.
	Location string
	// Route is the route, and optionally the rule, that takes the request.
	Route *RouteRef
	// Backend is the one backend that receives every request of the kind.
	Backend *BackendRef
	// Backends are all the backends that receive requests of the kind,
	// with their weights: a traffic split, compared as proportions (80/20
	// equals 8/2).
	Backends []WeightedBackend
	// Path and Host are those of the request the backend receives.
	Path, Host string
	// Present are headers the backend receives, with their value; an empty
	// value accepts any. Absent are header names it must not receive.
	Present []Header
	Absent  []string
	// ResponsePresent and ResponseAbsent are the same for the headers the
	// gateway puts on the response (Location, CORS, response filters).
	ResponsePresent []Header
	ResponseAbsent  []string
}

// empty reports whether e checks nothing.
func (e Expect) empty() bool {
	return e.Outcome == "" && e.Status == nil && e.Location == "" && e.Route == nil && e.Backend == nil && len(e.Backends) == 0 &&
		e.Path == "" && e.Host == "" && len(e.Present) == 0 && len(e.Absent) == 0 &&
		len(e.ResponsePresent) == 0 && len(e.ResponseAbsent) == 0
}

// RouteRef names a route, "namespace/name", and optionally one of its
// rules, by index or by name: "namespace/name#1" or "namespace/name#cart".
type RouteRef struct {
	Namespace, Name string
	// Rule is the rule index, or nil.
	Rule *int
	// RuleName is the rule's name, when the reference uses one.
	RuleName string
}

// BackendRef names a backend, "namespace/name", and optionally its port.
type BackendRef struct {
	Namespace, Name string
	// Port is 0 for any port.
	Port int32
}

// WeightedBackend is a backend and its weight in a split.
type WeightedBackend struct {
	BackendRef
	Weight int32
}
