package translate

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// Envoy Gateway's HTTPRouteFilter (envoy-gateway profile): an ExtensionRef
// filter naming one in the route's namespace is applied as Envoy Gateway
// v1.9.1 applies it (internal/gatewayapi/filters.go): urlRewrite sets the
// host (a fixed value is Gateway API's own filter; type Header takes it
// from a request header, type Backend from the endpoint the request goes
// to) and rewrites the path by regex; directResponse answers the request
// itself with its status code (200 when unset), its body (inline, or the
// response.body key of a ConfigMap) and its content type. Fields gwsim
// does not simulate are named one by one in an info finding.

// egResponseBodyKey is the ConfigMap key Envoy Gateway reads a response
// body from; without it, it takes the ConfigMap's first value.
const egResponseBodyKey = "response.body"

// simulatedFilter returns the Envoy Gateway HTTPRouteFilter an
// ExtensionRef of route r names, when r's profile simulates the kind and
// the input holds it.
func (w *world) simulatedFilter(r routeInfo, ref *gwv1.LocalObjectReference) (*egv1a1.HTTPRouteFilter, bool) {
	if string(ref.Group) != profile.HTTPRouteFilterKind.Group || string(ref.Kind) != profile.HTTPRouteFilterKind.Kind {
		return nil, false
	}
	f, ok := w.egRouteFilters[keyOf(r.meta.Namespace, string(ref.Name))]
	if !ok || !w.routeProfile(r).Simulates(profile.HTTPRouteFilterKind) {
		return nil, false
	}
	return f, true
}

// egRouteFilter converts an HTTPRouteFilter into the IR: its rewrite as a
// filter, its direct response as fs.direct.
func (w *world) egRouteFilter(res *routeResult, hrf *egv1a1.HTTPRouteFilter, field string, fs *filterSet) []ir.Filter {
	var out []ir.Filter
	if rw := hrf.Spec.URLRewrite; rw != nil {
		u := &ir.URLRewrite{}
		if h := rw.Hostname; h != nil {
			switch h.Type {
			case egv1a1.HeaderHTTPHostnameModifier:
				u.HostnameFromHeader = deref(h.Header)
			case egv1a1.BackendHTTPHostnameModifier:
				u.HostnameFromBackend = true
			}
		}
		if p := rw.Path; p != nil && p.Type == egv1a1.RegexHTTPPathModifier && p.ReplaceRegexMatch != nil {
			if _, err := regexp.Compile(p.ReplaceRegexMatch.Pattern); err != nil || p.ReplaceRegexMatch.Pattern == "" {
				fs.refs = append(fs.refs, backendResult{reason: string(gwv1.RouteReasonUnsupportedValue), message: fmt.Sprintf(
					"%s: HTTPRouteFilter %s: urlRewrite.path.replaceRegexMatch.pattern %q is not a valid RE2 regular expression", field, hrf.Name, p.ReplaceRegexMatch.Pattern)})
			} else {
				u.PathType, u.PathRegex, u.Path = string(egv1a1.RegexHTTPPathModifier), p.ReplaceRegexMatch.Pattern, p.ReplaceRegexMatch.Substitution
			}
		}
		out = append(out, ir.Filter{Type: string(gwv1.HTTPRouteFilterURLRewrite), URLRewrite: u})
	}
	if dr := hrf.Spec.DirectResponse; dr != nil {
		d := &ir.DirectResponse{Status: http.StatusOK, Reason: fmt.Sprintf("direct response of HTTPRouteFilter %s/%s", hrf.Namespace, hrf.Name)}
		if dr.StatusCode != nil {
			d.Status = *dr.StatusCode
		}
		d.ContentType = deref(dr.ContentType)
		if dr.Body != nil {
			body, msg := w.egResponseBody(hrf.Namespace, dr.Body)
			if msg != "" {
				fs.refs = append(fs.refs, backendResult{reason: string(gwv1.RouteReasonBackendNotFound), message: fmt.Sprintf("%s: HTTPRouteFilter %s: %s", field, hrf.Name, msg)})
				if fs.unresolved == "" {
					fs.unresolved, fs.unresolvedReason = "HTTPRouteFilter "+hrf.Name+" ("+msg+")", string(gwv1.RouteReasonBackendNotFound)
				}
			}
			d.Body = body
		}
		fs.direct = d
	}
	return out
}

// egResponseBody is a direct response body: inline, or from a ConfigMap
// in the filter's namespace (its response.body key, else the value of its
// first data key in key order, else of its first binaryData key, as Envoy
// Gateway falls back; it takes "the first" of a Go map, whose order Go does
// not fix, so gwsim takes the first in key order). msg says why a ConfigMap body cannot be read.
func (w *world) egResponseBody(ns string, b *egv1a1.CustomResponseBody) (body, msg string) {
	if b.Type == nil || *b.Type == egv1a1.ResponseValueTypeInline {
		return deref(b.Inline), ""
	}
	if b.ValueRef == nil {
		return "", "body.valueRef is not set"
	}
	cm, ok := w.configMaps[keyOf(ns, string(b.ValueRef.Name))]
	if !ok {
		return "", fmt.Sprintf("ConfigMap %s/%s of the body does not exist", ns, b.ValueRef.Name)
	}
	if v, ok := cm.Data[egResponseBodyKey]; ok {
		return v, ""
	}
	if len(cm.Data) > 0 {
		return cm.Data[slices.Sorted(maps.Keys(cm.Data))[0]], ""
	}
	if len(cm.BinaryData) > 0 {
		return string(cm.BinaryData[slices.Sorted(maps.Keys(cm.BinaryData))[0]]), ""
	}
	return "", fmt.Sprintf("ConfigMap %s/%s of the body has no data", ns, b.ValueRef.Name)
}

// egFilterFindings are the info findings naming, per HTTPRouteFilter of
// the input and per field, what gwsim does not simulate, when some
// GatewayClass's profile simulates the kind. They depend on the filter
// alone, so they are computed once, from the input.
func (w *world) egFilterFindings() []diag.Finding {
	if len(w.in.HTTPRouteFilters) == 0 || !w.anyProfileSimulates(profile.HTTPRouteFilterKind) {
		return nil
	}
	var out []diag.Finding
	for _, hrf := range w.in.HTTPRouteFilters {
		ref := diag.ObjectRef{Kind: profile.HTTPRouteFilterKind.Kind, Namespace: hrf.Namespace, Name: hrf.Name}
		for _, f := range egFilterUnsimulatedFields(hrf) {
			out = append(out, diag.Finding{
				Severity: diag.Info, Object: ref, Source: w.in.Sources.Of(ref), Field: f.field, Reason: diag.ReasonFieldNotSimulated,
				Message: f.what + " is not simulated: explain and test show the request without it",
			})
		}
	}
	return out
}

// unsimulatedField is a field gwsim reads but does not simulate.
type unsimulatedField struct{ field, what string }

// egFilterUnsimulatedFields lists the fields of hrf gwsim does not
// simulate, in the order the type declares them.
func egFilterUnsimulatedFields(hrf *egv1a1.HTTPRouteFilter) []unsimulatedField {
	var out []unsimulatedField
	s := hrf.Spec
	if s.URLRewrite != nil {
		if h := s.URLRewrite.Hostname; h != nil && h.Type == egv1a1.PathRegexHTTPHostnameModifier {
			out = append(out, unsimulatedField{"spec.urlRewrite.hostname.pathRegex", "rewriting the host from the path"})
		}
		if s.URLRewrite.AppendXForwardedHost != nil {
			out = append(out, unsimulatedField{"spec.urlRewrite.appendXForwardedHost", "the X-Forwarded-Host header"})
		}
	}
	if s.DirectResponse != nil && s.DirectResponse.Header != nil {
		out = append(out, unsimulatedField{"spec.directResponse.header", "the direct response's headers"})
	}
	if s.CredentialInjection != nil {
		out = append(out, unsimulatedField{"spec.credentialInjection", "credential injection (a header set from a Secret)"})
	}
	if len(s.Matches) > 0 {
		out = append(out, unsimulatedField{"spec.matches", "cookie matches"})
	}
	return out
}

// anyProfileSimulates reports whether the profile of some GatewayClass of
// gwsim's in the input, or the one forced, simulates gk.
func (w *world) anyProfileSimulates(gk schema.GroupKind) bool {
	if n := w.opts.Implementation; n != "" && n != profile.Auto {
		return profile.Of(n).Simulates(gk)
	}
	for _, c := range w.in.GatewayClasses {
		if w.isOurs(c) && ProfileOf(w.opts, c).Simulates(gk) {
			return true
		}
	}
	return false
}

// envoyUnresolvedFilter gives the ResolvedRefs reason and message of an
// ExtensionRef filter of route r that does not resolve, under a profile
// that checks filters as Envoy Gateway does (StatusChoices.EnvoyFilterRules):
// Envoy Gateway answers any filter reference it cannot resolve with
// UnsupportedValue, and a missing object of a kind the profile simulates
// (an HTTPRouteFilter) simply does not exist
// (internal/gatewayapi/filters.go processExtensionRefHTTPFilter,
// processUnresolvedHTTPFilter); on a backendRef the reason is its own
// InvalidBackendFilters (route.go processDestination). Other profiles keep
// reason and msg.
func (w *world) envoyUnresolvedFilter(r routeInfo, ref *gwv1.LocalObjectReference, level filterLevel, reason, msg string) (string, string) {
	p := w.routeProfile(r)
	if !p.Status.EnvoyFilterRules {
		return reason, msg
	}
	gk := schema.GroupKind{Group: string(ref.Group), Kind: string(ref.Kind)}
	if p.Simulates(gk) {
		msg = fmt.Sprintf("%s %s/%s does not exist", qualifiedKind(gk.Group, gk.Kind), r.meta.Namespace, ref.Name)
	}
	if level == backendLevel {
		return egReasonInvalidBackendFilters, msg
	}
	return string(gwv1.RouteReasonUnsupportedValue), msg
}

// egReasonInvalidBackendFilters is Envoy Gateway's ResolvedRefs reason for
// a backendRef whose filters it cannot apply
// (status.RouteReasonInvalidBackendFilters).
const egReasonInvalidBackendFilters = "InvalidBackendFilters"

// egPathRegexHostWithResolver refuses, as Envoy Gateway does, a rule of
// route res whose HTTPRouteFilter rewrites the host from the path
// (urlRewrite.hostname type PathRegex) while a backend of its action is a
// DynamicResolver Backend: the upstream host would come from request text
// that the dynamic forward proxy's loopback guard does not inspect. The
// rule's requests get a 500 and ResolvedRefs is False with UnsupportedValue
// (internal/gatewayapi/route.go rejectPathRegexHostRewriteWithDynamicResolver,
// for HTTPRoutes and GRPCRoutes alike).
func (w *world) egPathRegexHostWithResolver(res *routeResult, filters []gwv1.HTTPRouteFilter, action ir.Action, field string) (backendResult, bool) {
	pathRegex := false
	for _, f := range filters {
		if f.Type != gwv1.HTTPRouteFilterExtensionRef || f.ExtensionRef == nil {
			continue
		}
		if hrf, ok := w.simulatedFilter(res.info, f.ExtensionRef); ok && hrf.Spec.URLRewrite != nil &&
			hrf.Spec.URLRewrite.Hostname != nil && hrf.Spec.URLRewrite.Hostname.Type == egv1a1.PathRegexHTTPHostnameModifier {
			pathRegex = true
		}
	}
	if !pathRegex {
		return backendResult{}, false
	}
	for _, b := range action.Backends {
		for _, c := range res.clusters {
			if c.Name == b.Cluster && w.egDynamicResolver(c) {
				return backendResult{reason: string(gwv1.RouteReasonUnsupportedValue), message: fmt.Sprintf(
					"%s: a host rewritten from the path (HTTPRouteFilter urlRewrite.hostname PathRegex) is refused with DynamicResolver Backend %s: the host would come from request text that its loopback guard does not inspect, so the rule's requests get a 500", field, c.Service)}, true
			}
		}
	}
	return backendResult{}, false
}
