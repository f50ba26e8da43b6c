package explain

import (
	"fmt"
	"strings"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// NotSimulated is an implementation-specific object the request went
// through whose effect gwsim does not simulate: a custom (ExtensionRef)
// filter, or the backend the request is sent to.
type NotSimulated struct {
	// Use is "filter", "backend" or "policy".
	Use    string `json:"use"`
	Object Ref    `json:"object"`
	// Field is the policy's field that is not simulated; empty for the
	// whole object.
	Field string `json:"field,omitempty"`
	// Resolution is "resolved" (the object is in the input) or "assumed"
	// (it is not, and the open world assumes it).
	Resolution string `json:"resolution"`
}

// notSimulated lists what the evaluator says the request went through
// without being simulated.
func notSimulated(res evaluate.Result) []NotSimulated {
	out := make([]NotSimulated, 0, len(res.NotSimulated))
	for _, e := range res.NotSimulated {
		out = append(out, NotSimulated{Use: e.Use, Resolution: e.Resolution, Field: e.Field,
			Object: Ref{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name}})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Known reports whether gwsim knows the answer: the request went through
// no object whose effect it does not simulate (an implementation's filter,
// backend or policy).
func (t Trace) Known() bool {
	return len(t.NotSimulated) == 0 && len(t.Policies) == 0
}

// caveat is the sentence that ends an answer gwsim does not know, "" when
// it knows it.
func caveat(t Trace) string {
	if t.Known() {
		return ""
	}
	var parts []string
	for _, n := range t.NotSimulated {
		if n.Use == "policy" {
			what := n.Object.Kind + " " + n.Object.Namespace + "/" + n.Object.Name
			if n.Field != "" {
				what += " " + n.Field
			}
			parts = append(parts, "policy "+what)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s %s/%s (%s)", n.Use, n.Object.Kind, n.Object.Namespace, n.Object.Name, n.Resolution))
	}
	if len(t.Policies) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", len(t.Policies), plural(len(t.Policies), "policy", "policies")))
	}
	return "the answer is not known: the request goes through what gwsim does not simulate (" +
		strings.Join(parts, ", ") + "); the real gateway's answer may differ"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
