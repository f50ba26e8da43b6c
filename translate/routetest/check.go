package routetest

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/explain"
)

// Failure is one expectation a request did not meet.
type Failure struct {
	// Expect names it: status, location, route, backend, backends, path,
	// host or header.
	Expect string `json:"expect"`
	// Header is the header's name (Expect is header).
	Header string `json:"header,omitempty"`
	Want   string `json:"want"`
	Got    string `json:"got"`
}

// check lists the expectations of e that t does not meet, in the order
// the cases file documents them.
func (e Expect) check(t explain.Trace) []Failure {
	var out []Failure
	fail := func(expect, want, got string) { out = append(out, Failure{Expect: expect, Want: want, Got: got}) }
	if e.Outcome != "" && e.Outcome != string(t.Outcome) {
		fail("outcome", e.Outcome, string(t.Outcome))
	}
	if e.Status != nil && *e.Status != t.Status {
		fail("status", statusString(*e.Status), statusString(t.Status))
	}
	if e.Location != "" && e.Location != t.Location {
		fail("location", e.Location, orNone(t.Location, "no redirect"))
	}
	if r := e.Route; r != nil && !r.matches(routeOf(t)) {
		fail("route", r.String(), r.got(routeOf(t)))
	}
	served := servedBackends(t)
	if b := e.Backend; b != nil && !(len(served) == 1 && served[0].valid && b.matches(served[0].ref)) {
		fail("backend", b.String(), describeServed(served))
	}
	if len(e.Backends) > 0 && !splitMatches(e.Backends, served) {
		fail("backends", describeSplit(e.Backends), describeServed(served))
	}
	out = append(out, e.checkForwarded(t)...)
	return append(out, checkHeaders("responseHeader", e.ResponsePresent, e.ResponseAbsent, t.GatewayHeaders, "")...)
}

// routeOf is the route step that took the request, or the L4 route that
// took the connection.
func routeOf(t explain.Trace) *explain.RouteStep {
	if t.Route == nil && t.Connection != nil && t.Connection.Route != nil {
		return &explain.RouteStep{Object: t.Connection.Route.Object}
	}
	return t.Route
}

// checkForwarded checks the request the backend receives; when nothing is
// forwarded, every such expectation fails.
func (e Expect) checkForwarded(t explain.Trace) []Failure {
	var out []Failure
	fw := t.Forwarded
	none := "no request forwarded"
	if e.Path != "" && (fw == nil || fw.Path != e.Path) {
		out = append(out, Failure{Expect: "path", Want: e.Path, Got: forwardedField(fw, func(f *explain.Forwarded) string { return f.Path }, none)})
	}
	if e.Host != "" && (fw == nil || fw.Host != e.Host) {
		out = append(out, Failure{Expect: "host", Want: e.Host, Got: forwardedField(fw, func(f *explain.Forwarded) string { return f.Host }, none)})
	}
	if fw == nil {
		return append(out, checkHeaders("header", e.Present, e.Absent, nil, none)...)
	}
	return append(out, checkHeaders("header", e.Present, e.Absent, fw.Headers, "")...)
}

// checkHeaders checks headers h against the ones that must be present
// (with their value, or any when it is empty) and absent; none, when set,
// is why there are no headers to check at all.
func checkHeaders(expect string, present []Header, absent []string, h http.Header, none string) []Failure {
	var out []Failure
	for _, p := range present {
		want := cmp.Or(p.Value, "present")
		switch {
		case none != "":
			out = append(out, Failure{Expect: expect, Header: p.Name, Want: want, Got: none})
		case len(h.Values(p.Name)) == 0:
			out = append(out, Failure{Expect: expect, Header: p.Name, Want: want, Got: "absent"})
		case p.Value != "" && !slices.Contains(h.Values(p.Name), p.Value):
			out = append(out, Failure{Expect: expect, Header: p.Name, Want: want, Got: strings.Join(h.Values(p.Name), ", ")})
		}
	}
	for _, name := range absent {
		switch {
		case none != "":
			out = append(out, Failure{Expect: expect, Header: name, Want: "absent", Got: none})
		case len(h.Values(name)) > 0:
			out = append(out, Failure{Expect: expect, Header: name, Want: "absent", Got: strings.Join(h.Values(name), ", ")})
		}
	}
	return out
}

func forwardedField(fw *explain.Forwarded, field func(*explain.Forwarded) string, none string) string {
	if fw == nil {
		return none
	}
	return field(fw)
}

// matches reports whether the winning route step is the one r names.
func (r RouteRef) matches(s *explain.RouteStep) bool {
	switch {
	case s == nil || s.Object.Namespace != r.Namespace || s.Object.Name != r.Name:
		return false
	case r.Rule != nil:
		return s.Rule == *r.Rule
	case r.RuleName != "":
		return s.RuleName == r.RuleName
	}
	return true
}

// got names the route that took the request the way r is written: with
// the rule by name when r names it so and the rule has one.
func (r RouteRef) got(s *explain.RouteStep) string {
	if s == nil {
		return "no route"
	}
	rule := strconv.Itoa(s.Rule)
	if r.RuleName != "" && s.RuleName != "" {
		rule = s.RuleName
	}
	return fmt.Sprintf("%s/%s#%s", s.Object.Namespace, s.Object.Name, rule)
}

// served is a backend that receives a share of the requests.
type served struct {
	ref    BackendRef
	weight int32
	valid  bool
	reason string
}

// servedBackends are the winning rule's backends with a weight: invalid
// ones too, since their share gets a 500.
func servedBackends(t explain.Trace) []served {
	var out []served
	for _, b := range t.Backends {
		if b.Weight <= 0 {
			continue
		}
		s := served{weight: b.Weight, valid: b.Invalid == "", reason: b.Invalid, ref: BackendRef{Port: b.Port}}
		if b.BackendRef != nil {
			s.ref.Namespace, s.ref.Name = b.BackendRef.Namespace, b.BackendRef.Name
		} else if ref, err := parseBackendRef(b.Cluster); err == nil {
			s.ref = ref
		}
		out = append(out, s)
	}
	return out
}

// matches reports whether got is the backend b names; a port of 0 in b
// matches any.
func (b BackendRef) matches(got BackendRef) bool {
	return b.Namespace == got.Namespace && b.Name == got.Name && (b.Port == 0 || b.Port == got.Port)
}

// splitMatches reports whether the backends served are exactly want, in
// the same proportions (80/20 equals 8/2), and all valid.
func splitMatches(want []WeightedBackend, got []served) bool {
	if len(want) != len(got) {
		return false
	}
	var wantTotal, gotTotal int64
	for _, w := range want {
		wantTotal += int64(w.Weight)
	}
	for _, g := range got {
		gotTotal += int64(g.weight)
	}
	used := make([]bool, len(got))
	for _, w := range want {
		i := firstUnused(got, used, func(s served) bool {
			return s.valid && int64(s.weight)*wantTotal == int64(w.Weight)*gotTotal && w.matches(s.ref)
		})
		if i < 0 {
			return false
		}
		used[i] = true
	}
	return true
}

// firstUnused is the index of the first backend not used yet that ok
// accepts, or -1.
func firstUnused(ss []served, used []bool, ok func(served) bool) int {
	for i, s := range ss {
		if !used[i] && ok(s) {
			return i
		}
	}
	return -1
}

func describeSplit(bs []WeightedBackend) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = fmt.Sprintf("%s (weight %d)", b.String(), b.Weight)
	}
	return strings.Join(parts, ", ")
}

func describeServed(ss []served) string {
	switch {
	case len(ss) == 0:
		return "no backend"
	case len(ss) == 1 && ss[0].valid:
		return ss[0].ref.String()
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s (weight %d)", s.ref.String(), s.weight)
		if !s.valid {
			parts[i] = fmt.Sprintf("%s (weight %d, invalid: %s)", s.ref.String(), s.weight, s.reason)
		}
	}
	return strings.Join(parts, ", ")
}

// statusString renders a status; 0 is no HTTP answer at all.
func statusString(s int) string {
	if s == 0 {
		return "no HTTP answer"
	}
	return strconv.Itoa(s)
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}
