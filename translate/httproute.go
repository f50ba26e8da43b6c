package translate

import (
	"fmt"
	"net/http"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// httpRule is one rule: its matches (at least one, the spec's default
// PathPrefix "/" when none are written), filters and action.
type httpRule struct {
	matches []ir.Match
	filters []ir.Filter
	action  ir.Action
}

func (w *world) translateHTTPRoute(r *gwv1.HTTPRoute) *routeResult {
	res := &routeResult{generation: r.Generation, info: routeInfo{
		kind:       "HTTPRoute",
		meta:       r.ObjectMeta,
		parentRefs: r.Spec.ParentRefs,
		hostnames:  r.Spec.Hostnames,
	}}
	var refProblems []backendResult
	for i, rule := range r.Spec.Rules {
		field := fmt.Sprintf("spec.rules[%d]", i)
		hr := httpRule{matches: httpMatches(rule.Matches)}
		hr.filters, hr.action.Redirect = w.httpFilters(res, rule.Filters, field+".filters")
		w.unsupportedRuleFields(res, rule, field)
		if hr.action.Redirect == nil {
			var problems []backendResult
			hr.action, problems = w.httpBackends(res, rule.BackendRefs, field)
			refProblems = append(refProblems, problems...)
		}
		res.rules = append(res.rules, hr)
	}
	res.refs = resolvedRefsCondition(refProblems)
	return res
}

// httpBackends resolves a rule's backendRefs. The spec sends a request the
// share of an invalid backend would get to a 500, and every request to a 500
// when no backend can take any (none listed, all invalid, or all weight 0).
func (w *world) httpBackends(res *routeResult, refs []gwv1.HTTPBackendRef, field string) (ir.Action, []backendResult) {
	var action ir.Action
	var problems []backendResult
	var usable int32
	for j, ref := range refs {
		bf := fmt.Sprintf("%s.backendRefs[%d]", field, j)
		b := w.resolveBackend(res.info, ref.BackendRef, bf)
		if b.reason != "" {
			problems = append(problems, b)
		} else {
			res.clusters = append(res.clusters, *b.cluster)
			usable += b.backend.Weight
		}
		if len(ref.Filters) > 0 {
			res.findings = append(res.findings, w.routeFinding(res.info, diag.Warning, bf+".filters", diag.ReasonNotSupportedYet,
				"backendRef-level filters are not simulated yet; they are left out of the IR"))
		}
		action.Backends = append(action.Backends, b.backend)
	}
	if usable == 0 {
		reason := "no backendRefs"
		if len(refs) > 0 {
			reason = "no valid backend with a weight above 0"
		}
		action.DirectResponse = &ir.DirectResponse{Status: http.StatusInternalServerError, Reason: reason}
	}
	return action, problems
}

// resolvedRefsCondition is True when every backendRef resolved, and False
// with the first problem's reason otherwise; the message lists them all.
func resolvedRefsCondition(problems []backendResult) condition {
	typ := string(gwv1.RouteConditionResolvedRefs)
	if len(problems) == 0 {
		return trueCond(typ, string(gwv1.RouteReasonResolvedRefs), "all backendRefs are resolved")
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.message
	}
	return falseCond(typ, problems[0].reason, strings.Join(msgs, "; "))
}

// httpMatches converts a rule's matches, applying the spec's defaults.
func httpMatches(matches []gwv1.HTTPRouteMatch) []ir.Match {
	if len(matches) == 0 {
		return []ir.Match{{PathType: string(gwv1.PathMatchPathPrefix), Path: "/"}}
	}
	out := make([]ir.Match, len(matches))
	for i, m := range matches {
		im := ir.Match{PathType: string(gwv1.PathMatchPathPrefix), Path: "/"}
		if m.Path != nil {
			if m.Path.Type != nil {
				im.PathType = string(*m.Path.Type)
			}
			if m.Path.Value != nil {
				im.Path = *m.Path.Value
			}
		}
		if m.Method != nil {
			im.Method = string(*m.Method)
		}
		for _, h := range m.Headers {
			t := gwv1.HeaderMatchExact
			if h.Type != nil {
				t = *h.Type
			}
			im.Headers = append(im.Headers, ir.ValueMatch{Name: string(h.Name), Type: string(t), Value: h.Value})
		}
		for _, q := range m.QueryParams {
			t := gwv1.QueryParamMatchExact
			if q.Type != nil {
				t = *q.Type
			}
			im.QueryParams = append(im.QueryParams, ir.ValueMatch{Name: string(q.Name), Type: string(t), Value: q.Value})
		}
		out[i] = im
	}
	return out
}

// unsupportedRuleFields reports rule settings gwsim does not simulate yet.
func (w *world) unsupportedRuleFields(res *routeResult, rule gwv1.HTTPRouteRule, field string) {
	report := func(f, what string) {
		res.findings = append(res.findings, w.routeFinding(res.info, diag.Warning, field+"."+f, diag.ReasonNotSupportedYet,
			what+" is not simulated yet; it is left out of the IR"))
	}
	if rule.Timeouts != nil {
		report("timeouts", "timeouts")
	}
	if rule.Retry != nil {
		report("retry", "retry")
	}
	if rule.SessionPersistence != nil {
		report("sessionPersistence", "sessionPersistence")
	}
}
