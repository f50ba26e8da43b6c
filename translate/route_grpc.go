package translate

import (
	"fmt"
	"net/http"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// translateGRPCRoute translates a GRPCRoute into the shape every HTTP-like
// route kind shares. A GRPCRouteRule is an HTTPRouteRule with other
// matches: its filters, backendRefs (with their filters) and session
// persistence have HTTPRoute's types and meaning, so the rule goes through
// the HTTPRoute rule code, and only its matches differ; they become
// conditions on the HTTP/2 request a gRPC call is (see grpcMatch), so that
// virtual hosts, the IR and the evaluator treat gRPC and HTTP alike.
// Attachment, parent status and ResolvedRefs are the shared code's. A rule
// with an invalid match or a filter type GRPCRoute does not have is
// dropped, as an invalid HTTPRoute rule is.
func (w *world) translateGRPCRoute(r *gwv1.GRPCRoute) *routeResult {
	res := &routeResult{generation: r.Generation, info: routeInfo{
		kind:       "GRPCRoute",
		meta:       &r.ObjectMeta,
		parentRefs: r.Spec.ParentRefs,
		hostnames:  r.Spec.Hostnames,
	}}
	var refProblems []backendResult
	for i, rule := range r.Spec.Rules {
		field := "spec.rules[" + strconv.Itoa(i) + "]"
		hr, problems, invalid := w.httpRule(res, asHTTPRule(rule), field)
		refProblems = append(refProblems, problems...)
		var matchProblem ruleProblem
		hr.matches, hr.grpc, matchProblem = grpcMatches(rule.Matches, field)
		invalid = firstProblem(grpcFilterProblem(rule, field), w.egGRPCDirectResponse(res.info, hr.action, field), matchProblem, invalid)
		if d := hr.action.DirectResponse; d != nil && !hr.filterError && d.Status == http.StatusInternalServerError {
			// GRPCRouteRule.BackendRefs: a rule with no usable backend
			// MUST answer gRPC UNAVAILABLE, which is HTTP 503 on the wire
			// (the gRPC HTTP-to-status mapping, also Envoy's for local
			// replies to gRPC requests). An unresolved ExtensionRef filter
			// keeps its 500: the spec asks only for "a HTTP error
			// response" there, and Envoy Gateway answers 500 for every
			// route kind (a gRPC client reads it as UNKNOWN).
			d.Status = http.StatusServiceUnavailable
			d.Reason += "; gRPC status UNAVAILABLE"
		}
		res.addRule(i, hr, invalid)
	}
	w.finishRules(res, refProblems)
	return res
}

// asHTTPRule is the HTTPRouteRule with the same name, filters, backendRefs
// and session persistence as rule, and no matches. GRPCRoute's four filter
// types have HTTPRoute's names and configuration types; the type of any
// other is kept as written (grpcFilterProblem reports it).
func asHTTPRule(rule gwv1.GRPCRouteRule) gwv1.HTTPRouteRule {
	out := gwv1.HTTPRouteRule{Name: rule.Name, Filters: asHTTPFilters(rule.Filters), SessionPersistence: rule.SessionPersistence}
	for _, ref := range rule.BackendRefs {
		out.BackendRefs = append(out.BackendRefs, gwv1.HTTPBackendRef{BackendRef: ref.BackendRef, Filters: asHTTPFilters(ref.Filters)})
	}
	return out
}

func asHTTPFilters(filters []gwv1.GRPCRouteFilter) []gwv1.HTTPRouteFilter {
	var out []gwv1.HTTPRouteFilter
	for _, f := range filters {
		out = append(out, gwv1.HTTPRouteFilter{
			Type:                   gwv1.HTTPRouteFilterType(f.Type),
			RequestHeaderModifier:  f.RequestHeaderModifier,
			ResponseHeaderModifier: f.ResponseHeaderModifier,
			RequestMirror:          f.RequestMirror,
			ExtensionRef:           f.ExtensionRef,
		})
	}
	return out
}

// grpcFilterProblem makes a rule invalid when one of its filters, or of its
// backendRefs' filters, has a type GRPCRoute does not define (the CRD's
// enum refuses it; the spec's answer to unknown values is UnsupportedValue).
func grpcFilterProblem(rule gwv1.GRPCRouteRule, field string) ruleProblem {
	check := func(filters []gwv1.GRPCRouteFilter, field string) ruleProblem {
		for i, f := range filters {
			switch f.Type {
			case gwv1.GRPCRouteFilterRequestHeaderModifier, gwv1.GRPCRouteFilterResponseHeaderModifier,
				gwv1.GRPCRouteFilterRequestMirror, gwv1.GRPCRouteFilterExtensionRef:
				continue
			}
			return ruleProblem{string(gwv1.RouteReasonUnsupportedValue),
				fmt.Sprintf("%s[%d]: filter type %q is not a GRPCRoute filter type", field, i, f.Type)}
		}
		return ruleProblem{}
	}
	p := check(rule.Filters, field+".filters")
	for j, ref := range rule.BackendRefs {
		p = firstProblem(p, check(ref.Filters, fmt.Sprintf("%s.backendRefs[%d].filters", field, j)))
	}
	return p
}

// egGRPCDirectResponse refuses, under a profile that checks filters as
// Envoy Gateway does (StatusChoices.EnvoyFilterRules), a GRPCRoute rule
// whose HTTPRouteFilter answers with a 2xx direct response: a gRPC client
// reads the status as OK but gets no response message, so Envoy Gateway
// drops the rule (UnsupportedValue; internal/gatewayapi/filters.go
// ProcessHTTPFilters, grpcDirectResponse2xxMsg). Only a filter answers a
// gRPC rule with a 2xx, so the status alone tells.
func (w *world) egGRPCDirectResponse(r routeInfo, action ir.Action, field string) ruleProblem {
	d := action.DirectResponse
	if d == nil || d.Status < 200 || d.Status >= 300 || !w.routeProfile(r).Status.EnvoyFilterRules {
		return ruleProblem{}
	}
	return ruleProblem{string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf(
		"%s.filters: a direct response with status %d cannot answer a gRPC call (gRPC reads a 2xx as OK and expects a response message, which a direct response cannot carry); answer with a status that is not 2xx to refuse the call", field, d.Status)}
}
