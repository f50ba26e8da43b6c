package evaluate

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// apply runs the matched route's filters in order, then its action, then
// the chosen backend's own filters. As in Envoy, where CORS and external
// authorization are HTTP filters ahead of the router, a CORS preflight is
// answered and a failed-closed authorization denies before the action
// runs. A direct response answers before a redirect: it marks a rule that
// cannot be served as written (no usable backend, an unresolved filter).
//
// An implementation's policies run first (policy.go), and its response
// overrides replace the gateway's own answers last.
func apply(res Result, gw *ir.Gateway, route *ir.Route, req Request, listenerPort int32) Result {
	res = applyRule(res, gw, route, req, listenerPort)
	if res.Outcome == Routed || res.Outcome == NoHealthyUpstream {
		forwardedPolicySteps(&res, route.Policies)
	}
	if res.Outcome != Routed {
		res.Mirrors = nil // nothing is forwarded, so nothing is mirrored
		overrideLocal(&res)
	}
	return res
}

// applyRule is apply before the response overrides.
func applyRule(res Result, gw *ir.Gateway, route *ir.Route, req Request, listenerPort int32) Result {
	res.Route, res.Reason = route, ""
	fwd := ForwardedRequest{Host: req.Host, Path: req.Path, Headers: req.Headers.Clone()}
	if req.Authority != "" {
		fwd.Host = req.Authority
	}
	if fwd.Headers == nil {
		fwd.Headers = http.Header{}
	}
	if applyPolicies(&res, route.Policies, req) {
		return res
	}
	for _, f := range route.Filters {
		switch {
		case f.CORS != nil && isPreflight(req):
			res.CORSHeaders = preflightHeaders(f.CORS, req)
			res.Outcome, res.Status, res.Mirrors = CORSPreflight, http.StatusNoContent, nil
			return res
		case f.CORS != nil:
			res.CORSHeaders = actualHeaders(f.CORS, req)
		case f.ExternalAuth != nil:
			res.ExternalAuth = f.ExternalAuth
			if f.ExternalAuth.Invalid != "" {
				res.Outcome, res.Status, res.Mirrors = AuthDenied, http.StatusForbidden, nil
				return res
			}
		default:
			res.addExtensionFilter(f, route.Origin.Namespace)
			res = applyRequestFilter(res, &fwd, route.Match, f)
		}
	}
	res.Forwarded = fwd
	a := route.Action
	switch {
	case a.DirectResponse != nil:
		res.Outcome, res.Status = DirectResponse, a.DirectResponse.Status
	case a.Redirect != nil:
		res.Outcome, res.Status = Redirected, a.Redirect.StatusCode
		res.Location = location(a.Redirect, route.Match, req, listenerPort)
	default:
		res.Backend = pick(a.Backends, req.Seed)
		res.Outcome, res.Status = Routed, http.StatusOK
		if res.Backend == nil || res.Backend.Invalid != "" {
			res.Outcome, res.Status = DirectResponse, invalidBackendStatus(route)
			break
		}
		for _, f := range res.Backend.Filters {
			res.addExtensionFilter(f, route.Origin.Namespace)
			res = applyRequestFilter(res, &fwd, route.Match, f)
		}
		res.Forwarded = fwd
		res.Timeouts, res.Retry, res.SessionPersistence = a.Timeouts, a.Retry, a.SessionPersistence
		res.Cluster = findCluster(gw, res.Backend.Cluster)
		if fromBackend(route.Filters, res.Backend.Filters) {
			res.Forwarded.Host = backendHost(res.Cluster, res.Forwarded.Host)
		}
		res.addExtensionBackend(res.Cluster)
		if why := unhealthy(res.Cluster); why != "" {
			res.Outcome, res.Status, res.Reason = NoHealthyUpstream, http.StatusServiceUnavailable, why
		}
	}
	if res.Outcome != Routed {
		res.Mirrors = nil // nothing is forwarded, so nothing is mirrored
	}
	for i := range res.Mirrors {
		res.Mirrors[i].Target = findCluster(gw, res.Mirrors[i].Cluster)
	}
	return res
}

// invalidBackendStatus is what the share of an invalid backend gets: a 500
// (HTTPRouteRule.BackendRefs), or for a GRPCRoute the UNAVAILABLE that
// GRPCRouteRule.BackendRefs requires, a 503 on the wire, as the rule with no
// usable backend at all gets in the IR.
func invalidBackendStatus(route *ir.Route) int {
	if route.Origin.Kind == "GRPCRoute" {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// applyRequestFilter runs one filter that changes the forwarded request or
// the response headers, or mirrors the request.
func applyRequestFilter(res Result, fwd *ForwardedRequest, m ir.Match, f ir.Filter) Result {
	switch {
	case f.RequestHeaderModifier != nil:
		ModifyHeaders(fwd.Headers, f.RequestHeaderModifier)
	case f.ResponseHeaderModifier != nil:
		res.ResponseHeaders = mergeHeaderModifiers(res.ResponseHeaders, f.ResponseHeaderModifier)
	case f.URLRewrite != nil:
		if f.URLRewrite.Hostname != "" {
			fwd.Host = f.URLRewrite.Hostname
		}
		if h := f.URLRewrite.HostnameFromHeader; h != "" && fwd.Headers.Get(h) != "" {
			fwd.Host = fwd.Headers.Get(h)
		}
		if f.URLRewrite.PathRegex != "" {
			fwd.Path = rewritePathRegex(f.URLRewrite.PathRegex, f.URLRewrite.Path, fwd.Path)
		} else {
			fwd.Path = rewritePath(m, f.URLRewrite.PathType, f.URLRewrite.Path, fwd.Path)
		}
	case f.RequestMirror != nil:
		res.addMirror(f.RequestMirror)
	}
	return res
}

// listenerScheme is the scheme a request to a Gateway listener has when the
// caller does not say: https for HTTPS listeners, http otherwise. A
// redirect without a scheme keeps it (RequestRedirect.scheme).
func listenerScheme(port *ir.Listener, listener string) string {
	for _, l := range port.Listeners {
		if l.Name == listener && l.Protocol == "HTTPS" {
			return "https"
		}
	}
	return "http"
}

// pick chooses the backend whose cumulative weight covers seed modulo the
// total weight; zero-weight backends are never chosen.
func pick(backends []ir.WeightedBackend, seed int64) *ir.WeightedBackend {
	var total int64
	for _, b := range backends {
		total += int64(b.Weight)
	}
	if total == 0 {
		return nil
	}
	n := ((seed % total) + total) % total
	for i := range backends {
		n -= int64(backends[i].Weight)
		if n < 0 {
			return &backends[i]
		}
	}
	return nil
}

// ModifyHeaders applies a header modifier to h in the spec's order: set,
// add, remove. Header names are case-insensitive (http.Header canonicalises
// them). A nil modifier changes nothing. It is exported for whoever plays
// a Result's ResponseHeaders onto a backend's response.
func ModifyHeaders(h http.Header, m *ir.HeaderModifier) {
	if m == nil {
		return
	}
	for _, s := range m.Set {
		h.Set(s.Name, s.Value)
	}
	for _, a := range m.Add {
		h.Add(a.Name, a.Value)
	}
	for _, r := range m.Remove {
		h.Del(r)
	}
}

// rewritePath applies a path modifier to a request target, keeping its
// query. ReplacePrefixMatch replaces the matched prefix segment-wise: with
// prefix "/prefix" and replacement "/one", "/prefix/two" becomes
// "/one/two"; a replacement of "/" strips the prefix ("/prefix/two" →
// "/two", "/prefix" → "/").
func rewritePath(m ir.Match, typ, value, target string) string {
	path, query, hasQuery := strings.Cut(target, "?")
	switch typ {
	case "ReplaceFullPath":
		path = value
	case "ReplacePrefixMatch":
		prefix := strings.TrimSuffix(m.Path, "/")
		rest := strings.TrimPrefix(path, prefix)
		repl := strings.TrimSuffix(value, "/")
		path = repl + rest
		if path == "" {
			path = "/"
		}
	default:
		return target
	}
	if hasQuery {
		return path + "?" + query
	}
	return path
}

// location builds a redirect's Location header. The scheme is the
// redirect's, else the request's. The port follows the spec: an explicit
// port wins; otherwise a redirect that sets the scheme uses that scheme's
// well-known port, and one that does not keeps the listener's port.
// Well-known ports (80 for http, 443 for https) are left out of the header.
// The path is the request's, rewritten by the redirect's path modifier;
// the query string is kept, as Envoy does unless told to strip it.
func location(r *ir.Redirect, m ir.Match, req Request, listenerPort int32) string {
	scheme := req.Scheme
	if scheme == "" {
		scheme = "http"
	}
	port := listenerPort
	if r.Scheme != "" {
		scheme = r.Scheme
		port = wellKnownPort(scheme)
	}
	if r.Port != 0 {
		port = r.Port
	}
	host := req.Host
	if r.Hostname != "" {
		host = r.Hostname
	}
	target := rewritePath(m, r.PathType, r.Path, req.Path)
	if port == wellKnownPort(scheme) {
		return fmt.Sprintf("%s://%s%s", scheme, host, target)
	}
	return fmt.Sprintf("%s://%s:%d%s", scheme, host, port, target)
}

func wellKnownPort(scheme string) int32 {
	if strings.EqualFold(scheme, "https") {
		return 443
	}
	return 80
}
