package translate

import (
	"fmt"
	"regexp"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// regexProblem checks the RegularExpression values of an HTTPRoute rule's
// matches: path, header and query parameter. Their dialect is
// implementation-specific; gwsim's is RE2 (Go's regexp, which Envoy's
// safe_regex shares), matched against the whole value, and it is the one
// the evaluator uses. A value that does not compile makes the rule invalid
// with UnsupportedValue, so that it is dropped (PartiallyInvalid when other
// rules are valid), as a GRPCRoute method regex is.
func regexProblem(matches []gwv1.HTTPRouteMatch, field string) ruleProblem {
	bad := func(f, value string, err error) ruleProblem {
		return ruleProblem{reason: string(gwv1.RouteReasonUnsupportedValue),
			message: fmt.Sprintf("%s: %q is not a valid RE2 regular expression: %v", f, value, err)}
	}
	for i, m := range matches {
		mf := func() string { return field + ".matches[" + strconv.Itoa(i) + "]" }
		if p := m.Path; p != nil && p.Type != nil && *p.Type == gwv1.PathMatchRegularExpression && p.Value != nil {
			if _, err := regexp.Compile(*p.Value); err != nil {
				return bad(mf()+".path.value", *p.Value, err)
			}
		}
		for j, h := range m.Headers {
			if h.Type != nil && *h.Type == gwv1.HeaderMatchRegularExpression {
				if _, err := regexp.Compile(h.Value); err != nil {
					return bad(fmt.Sprintf("%s.headers[%d].value", mf(), j), h.Value, err)
				}
			}
		}
		for j, q := range m.QueryParams {
			if q.Type != nil && *q.Type == gwv1.QueryParamMatchRegularExpression {
				if _, err := regexp.Compile(q.Value); err != nil {
					return bad(fmt.Sprintf("%s.queryParams[%d].value", mf(), j), q.Value, err)
				}
			}
		}
	}
	return ruleProblem{}
}
