package evaluate

import (
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// Condition names one part of a route match.
type Condition string

// The parts of a match, in the order Mismatches checks them.
const (
	CondPath       Condition = "Path"
	CondMethod     Condition = "Method"
	CondHeader     Condition = "Header"
	CondQueryParam Condition = "QueryParam"
)

// Mismatch is one part of a match that a request fails.
type Mismatch struct {
	Condition Condition `json:"condition"`
	// Name is the header or query parameter name; empty for path and method.
	Name string `json:"name,omitempty"`
	// Type is the match type (Exact, PathPrefix, RegularExpression).
	Type string `json:"type,omitempty"`
	Want string `json:"want"`
	// Got is the request's value; empty with Missing set when the request
	// has no such header or query parameter.
	Got     string `json:"got,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// Mismatches lists every part of m that req fails, with the same rules as
// the evaluation itself (a request matches m exactly when the list is
// empty). Unlike matching, it does not stop at the first failure: an
// explanation ranks near misses by how many conditions failed. The
// request's Method must already be defaulted (Evaluate defaults it to GET).
func Mismatches(m ir.Match, req Request) []Mismatch {
	var out []Mismatch
	path, query := splitTarget(req.Path)
	if !pathMatches(m.PathType, m.Path, path) {
		out = append(out, Mismatch{Condition: CondPath, Type: m.PathType, Want: m.Path, Got: path})
	}
	if m.Method != "" && m.Method != req.Method {
		out = append(out, Mismatch{Condition: CondMethod, Want: m.Method, Got: req.Method})
	}
	for _, h := range m.Headers {
		values := req.Headers.Values(h.Name)
		got := strings.Join(values, ",")
		if len(values) == 0 || !valueMatches(h.Type, h.Value, got) {
			out = append(out, Mismatch{Condition: CondHeader, Name: h.Name, Type: h.Type, Want: h.Value, Got: got, Missing: len(values) == 0})
		}
	}
	for _, q := range m.QueryParams {
		values, ok := query[q.Name]
		missing := !ok || len(values) == 0
		var got string
		if !missing {
			got = values[0]
		}
		if missing || !valueMatches(q.Type, q.Value, got) {
			out = append(out, Mismatch{Condition: CondQueryParam, Name: q.Name, Type: q.Type, Want: q.Value, Got: got, Missing: missing})
		}
	}
	return out
}

// PathMatches reports whether a path match of the given type and value
// covers path (without its query), by the rules Evaluate applies.
func PathMatches(typ, value, path string) bool { return pathMatches(typ, value, path) }

// HostMatches reports whether a listener or virtual-host hostname pattern
// covers host, by the rules Evaluate applies ("*" covers everything).
func HostMatches(pattern, host string) bool { return hostMatches(pattern, host) }
