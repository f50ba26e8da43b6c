package translate

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// droppedRule is a rule whose configuration is invalid (filters the spec
// does not let a rule combine, unknown enum values, values the API server
// would refuse). gwsim takes the spec's "Drop Rule" approach: the rule
// programs nothing, the others keep working.
type droppedRule struct {
	index   int
	problem ruleProblem
}

// rejectInvalidRoute applies the spec's rule for a route whose rules are
// all invalid: the entire route is invalid, so every parent that would
// have accepted it gets Accepted False with the first rule's reason
// (IncompatibleFilters or UnsupportedValue) and the route attaches nowhere.
// A route with some valid rules is left alone (see partiallyInvalid).
// countRejected keeps the rejected route counted in its listeners'
// attachedRoutes, unserved, for a profile that counts it there.
func rejectInvalidRoute(res *routeResult, parents []*parentResult, countRejected bool) {
	if len(res.dropped) == 0 || len(res.dropped) < len(res.rules) {
		return
	}
	for _, p := range parents {
		if !p.accepted.Status {
			continue
		}
		p.accepted = falseCond(string(gwv1.RouteConditionAccepted), res.dropped[0].problem.reason,
			"every rule is invalid: "+describeDropped(res.dropped))
		if countRejected {
			p.counted = p.attached
		}
		p.attached = nil
	}
}

// partiallyInvalid is the PartiallyInvalid condition of a route with both
// valid and dropped rules, nil otherwise. The spec requires its message to
// start with "Dropped Rule" and name the dropped rules; gwsim uses the
// first dropped rule's reason (the spec lists UnsupportedValue and allows
// others, such as IncompatibleFilters).
func partiallyInvalid(res *routeResult) *condition {
	if len(res.dropped) == 0 || len(res.dropped) == len(res.rules) {
		return nil
	}
	c := trueCond(string(gwv1.RouteConditionPartiallyInvalid), res.dropped[0].problem.reason,
		"Dropped Rule(s): "+describeDropped(res.dropped))
	return &c
}

func describeDropped(ds []droppedRule) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("rule %d (%s)", d.index, d.problem.message)
	}
	return strings.Join(parts, "; ")
}

// addRule appends rule i of the route, dropped when invalid names a
// problem.
func (res *routeResult) addRule(i int, hr httpRule, invalid ruleProblem) {
	if invalid.reason != "" {
		hr.dropped = true
		res.dropped = append(res.dropped, droppedRule{index: i, problem: invalid})
	}
	res.rules = append(res.rules, hr)
}

// finishRules sets what a route's rules decide together once all are
// added: ResolvedRefs from their backend problems (and the unmet
// BackendTLSPolicies), and the findings of rules that fail every request.
func (w *world) finishRules(res *routeResult, refProblems []backendResult) {
	res.refs = resolvedRefsCondition(append(refProblems, res.unmetTLS...))
	res.findings = append(res.findings, w.failingRuleFindings(res)...)
}
