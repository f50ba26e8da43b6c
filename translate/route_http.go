package translate

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// httpRule is one rule: its matches (at least one, see HTTPMatches),
// filters and action. A dropped rule
// is invalid and programs nothing (see droppedRules).
type httpRule struct {
	matches []ir.Match
	filters []ir.Filter
	action  ir.Action
	dropped bool
	// filterError is set when the rule's direct response is the error an
	// unresolved ExtensionRef filter gets, not the 500 of a rule without a
	// usable backend (GRPCRoute answers the two differently).
	filterError bool
	// grpc is, for GRPCRoute rules, the gRPC method key of each match (see
	// precedence_grpc.go); nil for HTTPRoute rules.
	grpc []grpcMethodKey
}

func (w *world) translateHTTPRoute(r *gwv1.HTTPRoute) *routeResult {
	res := &routeResult{generation: r.Generation, info: routeInfo{
		kind:       "HTTPRoute",
		meta:       &r.ObjectMeta,
		parentRefs: r.Spec.ParentRefs,
		hostnames:  r.Spec.Hostnames,
	}}
	res.rules = make([]httpRule, 0, len(r.Spec.Rules))
	backendRefs := 0
	for _, rule := range r.Spec.Rules {
		backendRefs += len(rule.BackendRefs)
	}
	res.clusters = make([]*ir.Cluster, 0, backendRefs)
	var refProblems []backendResult
	for i, rule := range r.Spec.Rules {
		hr, problems, invalid := w.httpRule(res, rule, "spec.rules["+strconv.Itoa(i)+"]")
		refProblems = append(refProblems, problems...)
		res.addRule(i, hr, invalid)
	}
	w.finishRules(res, refProblems)
	return res
}

// httpRule converts one rule: its filters, then its action (the redirect,
// or the backends), then its timeouts, retry and session persistence. A
// rule-level ExtensionRef that cannot be resolved turns the action into a
// 500, as the spec requires, with the backends still listed. The returned
// problem, when set, makes the rule invalid (its own filters', its
// backendRefs' filters', or its settings'); such a rule is not converted
// further, since it programs nothing.
func (w *world) httpRule(res *routeResult, rule gwv1.HTTPRouteRule, field string) (httpRule, []backendResult, ruleProblem) {
	var hr httpRule
	if !w.opts.StatusOnly {
		hr.matches = HTTPMatches(rule.Matches) // the IR's alone
	}
	invalid := regexProblem(rule.Matches, field)
	if len(rule.Filters) > 0 {
		invalid = firstProblem(invalid, w.ruleFilterProblem(res.info, rule.Filters, field+".filters"))
	}
	for j, ref := range rule.BackendRefs {
		if len(ref.Filters) > 0 {
			invalid = firstProblem(invalid, filterProblem(ref.Filters, field+".backendRefs["+strconv.Itoa(j)+"].filters"))
		}
	}
	settings, settingsInvalid := ruleSettings(rule, field)
	if invalid = firstProblem(invalid, settingsInvalid); invalid.reason != "" {
		return hr, nil, invalid
	}
	var fs filterSet
	if len(rule.Filters) > 0 {
		fs = w.httpFilters(res, rule.Filters, field+".filters", ruleLevel)
	}
	hr.filters = fs.filters
	problems := fs.refs
	if fs.redirect != nil {
		hr.action.Redirect = fs.redirect
	} else {
		var backendProblems []backendResult
		hr.action, backendProblems = w.httpBackends(res, rule.BackendRefs, field)
		problems = append(problems, backendProblems...)
	}
	if fs.direct != nil {
		hr.action.DirectResponse = fs.direct
	}
	if p, ok := w.egPathRegexHostWithResolver(res, rule.Filters, hr.action, field); ok {
		problems = append(problems, p)
		hr.action.DirectResponse = &ir.DirectResponse{Status: http.StatusInternalServerError, Reason: p.message}
	}
	if fs.unresolved != "" {
		hr.action.DirectResponse = &ir.DirectResponse{Status: http.StatusInternalServerError,
			Reason: "unresolved " + fs.unresolved}
		hr.filterError = true
	}
	hr.action.Timeouts, hr.action.Retry, hr.action.SessionPersistence = settings.Timeouts, settings.Retry, settings.SessionPersistence
	return hr, problems, ruleProblem{}
}

// ruleFilterProblem says why a rule's filter list makes the rule invalid,
// by the rules of the route's profile: the spec's (filterProblem), or
// Envoy Gateway's (egFilterProblem), which lets repeated header modifiers
// merge and refuses what Envoy cannot program. A filter of unknown type is
// the spec's UnsupportedValue in both.
func (w *world) ruleFilterProblem(r routeInfo, filters []gwv1.HTTPRouteFilter, field string) ruleProblem {
	if !w.routeProfile(r).Status.EnvoyFilterRules {
		return filterProblem(filters, field)
	}
	for i, f := range filters {
		if msg := filterValueProblem(f); msg != "" && f.Type != gwv1.HTTPRouteFilterExtensionRef {
			return ruleProblem{string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf("%s[%d]: %s", field, i, msg)}
		}
	}
	return w.egFilterProblem(r, filters, field)
}

// firstProblem returns the first problem that is set.
func firstProblem(ps ...ruleProblem) ruleProblem {
	for _, p := range ps {
		if p.reason != "" {
			return p
		}
	}
	return ruleProblem{}
}

// httpBackends resolves a rule's backendRefs. The spec sends a request the
// share of an invalid backend would get to a 500, and every request to a 500
// when no backend can take any (none listed, all invalid, or all weight 0).
// A backendRef's own filters run only for requests sent to it; one with an
// unresolvable ExtensionRef filter is invalid (InvalidKind, or the
// profile's reason), so its share gets the 500 the spec requires.
func (w *world) httpBackends(res *routeResult, refs []gwv1.HTTPBackendRef, field string) (ir.Action, []backendResult) {
	var action ir.Action
	if len(refs) > 0 {
		action.Backends = make([]ir.WeightedBackend, 0, len(refs))
	}
	var problems []backendResult
	var usable int32
	dynamic := false
	for j, ref := range refs {
		bf := field + ".backendRefs[" + strconv.Itoa(j) + "]"
		b, refused := w.egRefusedBackendFilters(res.info, ref, bf)
		if !refused {
			b = w.resolveBackend(res.info, ref.BackendRef, bf)
		}
		var fs filterSet
		if len(ref.Filters) > 0 && !refused {
			fs = w.httpFilters(res, ref.Filters, bf+".filters", backendLevel)
		}
		b.backend.Filters = fs.filters
		problems = append(problems, fs.refs...)
		switch {
		case b.reason != "":
			problems = append(problems, b)
		case fs.unresolved != "":
			b.backend.Invalid = fs.unresolvedReason
		default:
			usable += w.useBackend(res, b, bf)
			dynamic = dynamic || b.backend.Weight > 0 && w.egDynamicResolver(b.cluster)
		}
		action.Backends = append(action.Backends, b.backend)
	}
	if p, ok := w.egLoneResolverProblem(res.info, dynamic, len(refs), field); ok {
		egRefuseAll(action.Backends)
		action.DirectResponse = &ir.DirectResponse{Status: http.StatusInternalServerError, Reason: egLoneResolverReject}
		return action, append(problems, p)
	}
	if usable == 0 {
		action.DirectResponse = &ir.DirectResponse{Status: http.StatusInternalServerError, Reason: noUsableBackend(len(refs))}
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

// HTTPMatches converts an HTTPRoute rule's matches to IR matches; only the
// first header or query parameter of a name counts (see
// appendFirstByName). The CRD defaults a rule without matches to one
// PathPrefix "/" match, a match's path to PathPrefix "/", and header and
// query parameter match types to Exact; the loader applies it. An explicit
// empty list (`matches: []`), which the API server stores as it is, still
// matches every request, as the spec says of a rule with no matches. It is
// exported so that explain describes what a route that is not attached
// would match with the very rules that build the IR.
func HTTPMatches(matches []gwv1.HTTPRouteMatch) []ir.Match {
	if len(matches) == 0 {
		return []ir.Match{{PathType: string(gwv1.PathMatchPathPrefix), Path: "/"}}
	}
	out := make([]ir.Match, len(matches))
	for i, m := range matches {
		var im ir.Match
		if m.Path != nil {
			im.PathType, im.Path = string(deref(m.Path.Type)), deref(m.Path.Value)
		}
		if m.Method != nil {
			im.Method = string(*m.Method)
		}
		for _, h := range m.Headers {
			im.Headers = appendFirstByName(im.Headers, ir.ValueMatch{Name: string(h.Name), Type: string(deref(h.Type)), Value: h.Value}, strings.EqualFold)
		}
		for _, q := range m.QueryParams {
			im.QueryParams = appendFirstByName(im.QueryParams, ir.ValueMatch{Name: string(q.Name), Type: string(deref(q.Type)), Value: q.Value},
				func(a, b string) bool { return a == b })
		}
		out[i] = im
	}
	return out
}

// appendFirstByName appends m unless an entry with an equivalent name is
// already there: the spec says only the first header (names compared
// case-insensitively) or query parameter (names compared exactly) with a
// given name counts, and later ones are ignored.
func appendFirstByName(ms []ir.ValueMatch, m ir.ValueMatch, same func(a, b string) bool) []ir.ValueMatch {
	for _, e := range ms {
		if same(e.Name, m.Name) {
			return ms
		}
	}
	return append(ms, m)
}
