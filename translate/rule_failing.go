package translate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// failingRuleFindings are the warnings for an HTTPRoute's or GRPCRoute's
// rules that answer every request they match with an error, read off the
// very action the IR holds (so that routes, explain, test and check give
// one answer): a DirectResponse, which httpRule sets when no backend can
// take a request (none listed and no redirect, every weight 0, every
// weighted backend invalid) or a rule filter does not resolve. When every
// rule the route serves fails, one finding names the route instead of one
// per rule. A dropped rule serves nothing and has its own finding.
func (w *world) failingRuleFindings(res *routeResult) []diag.Finding {
	type failing struct {
		index int
		why   string
	}
	var fails []failing
	served := 0
	status := 0
	for i, hr := range res.rules {
		if hr.dropped {
			continue
		}
		served++
		if d := hr.action.DirectResponse; d != nil && d.Status >= 500 {
			fails = append(fails, failing{index: i, why: failureCause(hr.action)})
			status = d.Status
		}
	}
	if len(fails) == 0 {
		return nil
	}
	answer := "a " + strconv.Itoa(status)
	if res.info.kind == "GRPCRoute" {
		answer += " (gRPC UNAVAILABLE)"
	}
	if len(fails) == served && served > 1 {
		parts := make([]string, len(fails))
		for i, f := range fails {
			parts[i] = fmt.Sprintf("rule %d (%s)", f.index, f.why)
		}
		return []diag.Finding{w.routeFinding(res.info, diag.Warning, "spec.rules", diag.ReasonEveryRequestFails,
			fmt.Sprintf("every request this route matches gets %s from the gateway: %s", answer, strings.Join(parts, "; ")))}
	}
	out := make([]diag.Finding, len(fails))
	for i, f := range fails {
		out[i] = w.routeFinding(res.info, diag.Warning, "spec.rules["+strconv.Itoa(f.index)+"]", diag.ReasonEveryRequestFails,
			fmt.Sprintf("every request this rule matches gets %s from the gateway: %s", answer, f.why))
	}
	return out
}

// failureCause says why a rule's action answers with an error, in the
// terms of the spec's rule that requires it.
func failureCause(a ir.Action) string {
	if strings.HasPrefix(a.DirectResponse.Reason, "unresolved ") {
		return "its filter (" + strings.TrimPrefix(a.DirectResponse.Reason, "unresolved ") + ") does not resolve, and the spec forbids skipping it"
	}
	if len(a.Backends) == 0 {
		return "it has no backendRefs and no filter that answers, such as a RequestRedirect"
	}
	weighted, invalid := 0, 0
	for _, b := range a.Backends {
		if b.Weight > 0 {
			weighted++
			if b.Invalid != "" {
				invalid++
			}
		}
	}
	switch {
	case weighted == 0:
		return "every backendRef has weight 0"
	case invalid == len(a.Backends):
		return "none of its backends is valid (see the route's ResolvedRefs finding)"
	default:
		return "every backend with a weight above 0 is invalid (see the route's ResolvedRefs finding)"
	}
}
