package translate

import (
	"fmt"
	"net/http"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// filterLevel says where a filter list is written: on a rule, or on one
// backendRef (HTTPBackendRef.filters, which run only for requests sent to
// that backend).
type filterLevel int

const (
	ruleLevel filterLevel = iota
	backendLevel
)

// filterSet is a filter list converted for the IR.
type filterSet struct {
	filters []ir.Filter
	// redirect is the RequestRedirect filter, which becomes the rule's
	// action: it answers instead of forwarding.
	redirect *ir.Redirect
	// direct is the answer of a vendor filter that answers requests
	// itself (eg_routefilter.go), which becomes the rule's action.
	direct *ir.DirectResponse
	// unresolved describes the first ExtensionRef filter ("" when none):
	// gwsim resolves no custom filter, and the spec answers the requests
	// it would process with an error instead of skipping it.
	unresolved string
	// unresolvedReason is the ResolvedRefs reason of that filter.
	unresolvedReason string
	// refs are the ResolvedRefs problems of the list: unresolvable mirror
	// and auth backends, and ExtensionRefs (InvalidKind, as GEP-1364 says).
	refs []backendResult
}

// ruleProblem is why a rule is invalid: a route condition reason
// (IncompatibleFilters, UnsupportedValue) and a message naming the field.
type ruleProblem struct {
	reason  string
	message string
}

// filterProblem says why a filter list makes its rule invalid (zero when
// it does not): a combination the spec forbids (see filterCombination), an
// unknown filter type, or a filter whose settings are missing or outside
// the spec's enums (UnsupportedValue, as the spec requires for unknown
// values).
func filterProblem(filters []gwv1.HTTPRouteFilter, field string) ruleProblem {
	if p := filterCombination(filters, field); p.reason != "" {
		return p
	}
	for i, f := range filters {
		if msg := filterValueProblem(f); msg != "" {
			return ruleProblem{string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf("%s[%d]: %s", field, i, msg)}
		}
	}
	return ruleProblem{}
}

// httpFilters converts a filter list in order. Filters gwsim does not
// simulate at this level, and filters that filterProblem refuses, are left
// out with a finding, never dropped silently.
func (w *world) httpFilters(res *routeResult, filters []gwv1.HTTPRouteFilter, field string, level filterLevel) filterSet {
	var fs filterSet
	leaveOut := func(ff, reason, msg string) {
		res.findings = append(res.findings, w.routeFinding(res.info, diag.Warning, ff, reason, msg+"; the filter is left out of the IR"))
	}
	for i, f := range filters {
		ff := field + "[" + strconv.Itoa(i) + "]"
		if msg := filterValueProblem(f); msg != "" {
			leaveOut(ff, string(gwv1.RouteReasonUnsupportedValue), msg)
			continue
		}
		switch f.Type {
		case gwv1.HTTPRouteFilterRequestHeaderModifier:
			fs.filters = append(fs.filters, ir.Filter{Type: string(f.Type), RequestHeaderModifier: headerModifier(f.RequestHeaderModifier)})
		case gwv1.HTTPRouteFilterResponseHeaderModifier:
			fs.filters = append(fs.filters, ir.Filter{Type: string(f.Type), ResponseHeaderModifier: headerModifier(f.ResponseHeaderModifier)})
		case gwv1.HTTPRouteFilterURLRewrite:
			fs.filters = append(fs.filters, ir.Filter{Type: string(f.Type), URLRewrite: urlRewrite(f.URLRewrite)})
		case gwv1.HTTPRouteFilterRequestMirror:
			m, problems := w.requestMirror(res, f.RequestMirror, ff)
			fs.refs = append(fs.refs, problems...)
			fs.filters = append(fs.filters, ir.Filter{Type: string(f.Type), RequestMirror: m})
		case gwv1.HTTPRouteFilterExtensionRef:
			if hrf, ok := w.simulatedFilter(res.info, f.ExtensionRef); ok {
				fs.filters = append(fs.filters, w.egRouteFilter(res, hrf, ff, &fs)...)
				continue
			}
			fs.filters = append(fs.filters, w.extensionRef(res, f.ExtensionRef, ff, level, &fs))
		case gwv1.HTTPRouteFilterRequestRedirect, gwv1.HTTPRouteFilterCORS, gwv1.HTTPRouteFilterExternalAuth:
			if level == backendLevel {
				leaveOut(ff, diag.ReasonNotSupportedYet, fmt.Sprintf("%s filters on a backendRef are not simulated yet", f.Type))
				continue
			}
			if f.Type == gwv1.HTTPRouteFilterRequestRedirect {
				fs.redirect = requestRedirect(f.RequestRedirect)
				continue
			}
			fs.filters = append(fs.filters, w.corsOrAuth(res, f, ff, &fs))
		}
	}
	return fs
}

// extensionRef records a custom filter. One that resolves (see
// rule_extension.go) is kept in the IR with how it resolved, and its effect is
// not simulated: requests pass through it unchanged, and explain says the
// answer is not known. Otherwise it is unresolved: a ResolvedRefs problem
// with InvalidKind, as GEP-1364 says for custom filters an implementation
// does not support, and the requests it would process get a 500 (the spec
// forbids skipping it).
func (w *world) extensionRef(res *routeResult, ref *gwv1.LocalObjectReference, field string, level filterLevel, fs *filterSet) ir.Filter {
	f := ir.Filter{Type: string(gwv1.HTTPRouteFilterExtensionRef), ExtensionRef: &ir.ExtensionRef{
		Group: string(ref.Group), Kind: string(ref.Kind), Name: string(ref.Name),
	}}
	resolution, reason, msg := w.resolveExtension(res.info, string(ref.Group), string(ref.Kind), res.info.meta.Namespace, string(ref.Name), "filter", field)
	f.ExtensionRef.Resolution = resolution
	if reason == "" {
		return f
	}
	desc := fmt.Sprintf("ExtensionRef filter %s %s", qualifiedKind(string(ref.Group), string(ref.Kind)), ref.Name)
	reason, msg = w.envoyUnresolvedFilter(res.info, ref, level, reason, msg)
	if fs.unresolved == "" {
		fs.unresolved, fs.unresolvedReason = desc, reason
	}
	fs.refs = append(fs.refs, backendResult{reason: reason, message: fmt.Sprintf(
		"%s: %s cannot be resolved (%s), so the requests it would process get a 500", field, desc, msg)})
	return f
}

// corsOrAuth converts a CORS or ExternalAuth filter (rule level only).
func (w *world) corsOrAuth(res *routeResult, f gwv1.HTTPRouteFilter, ff string, fs *filterSet) ir.Filter {
	if f.Type == gwv1.HTTPRouteFilterCORS {
		return ir.Filter{Type: string(f.Type), CORS: corsPolicy(f.CORS)}
	}
	a, problems := w.externalAuth(res, f.ExternalAuth, ff)
	fs.refs = append(fs.refs, problems...)
	return ir.Filter{Type: string(f.Type), ExternalAuth: a}
}

// filterCombination applies the spec's rules on a filter list as a whole:
// RequestRedirect and URLRewrite may not be combined, and only
// RequestMirror and ExtensionRef may be repeated. The API server's CEL
// rules enforce both; gwsim reads manifests without it, so it reports them
// as the spec's IncompatibleFilters.
func filterCombination(filters []gwv1.HTTPRouteFilter, field string) ruleProblem {
	seen := map[gwv1.HTTPRouteFilterType]int{}
	for _, f := range filters {
		seen[f.Type]++
	}
	if seen[gwv1.HTTPRouteFilterRequestRedirect] > 0 && seen[gwv1.HTTPRouteFilterURLRewrite] > 0 {
		return ruleProblem{string(gwv1.RouteReasonIncompatibleFilters),
			field + ": RequestRedirect and URLRewrite filters may not be combined"}
	}
	for _, t := range []gwv1.HTTPRouteFilterType{
		gwv1.HTTPRouteFilterCORS, gwv1.HTTPRouteFilterRequestHeaderModifier, gwv1.HTTPRouteFilterResponseHeaderModifier,
		gwv1.HTTPRouteFilterRequestRedirect, gwv1.HTTPRouteFilterURLRewrite, gwv1.HTTPRouteFilterExternalAuth,
	} {
		if seen[t] > 1 {
			return ruleProblem{string(gwv1.RouteReasonIncompatibleFilters),
				fmt.Sprintf("%s: the %s filter cannot be repeated", field, t)}
		}
	}
	return ruleProblem{}
}

// filterValueProblem says what is wrong with one filter ("" when nothing
// is): an unknown type, missing settings, or a value outside the spec's
// enums. The API server refuses all of these; gwsim reads manifests that
// never went through it.
func filterValueProblem(f gwv1.HTTPRouteFilter) string {
	var present bool
	var name string
	switch f.Type {
	case gwv1.HTTPRouteFilterRequestHeaderModifier:
		present, name = f.RequestHeaderModifier != nil, "requestHeaderModifier"
	case gwv1.HTTPRouteFilterResponseHeaderModifier:
		present, name = f.ResponseHeaderModifier != nil, "responseHeaderModifier"
	case gwv1.HTTPRouteFilterURLRewrite:
		present, name = f.URLRewrite != nil, "urlRewrite"
	case gwv1.HTTPRouteFilterRequestRedirect:
		present, name = f.RequestRedirect != nil, "requestRedirect"
	case gwv1.HTTPRouteFilterRequestMirror:
		present, name = f.RequestMirror != nil, "requestMirror"
	case gwv1.HTTPRouteFilterCORS:
		present, name = f.CORS != nil, "cors"
	case gwv1.HTTPRouteFilterExternalAuth:
		present, name = f.ExternalAuth != nil, "externalAuth"
	case gwv1.HTTPRouteFilterExtensionRef:
		present, name = f.ExtensionRef != nil, "extensionRef"
	default:
		return fmt.Sprintf("filter type %q is unknown", f.Type)
	}
	switch {
	case !present:
		return fmt.Sprintf("filter type %s needs its %s settings", f.Type, name)
	case f.RequestRedirect != nil:
		return redirectProblem(f.RequestRedirect)
	case f.RequestMirror != nil:
		return mirrorProblem(f.RequestMirror)
	}
	return ""
}

func headerModifier(m *gwv1.HTTPHeaderFilter) *ir.HeaderModifier {
	out := &ir.HeaderModifier{Remove: append([]string(nil), m.Remove...)}
	for _, h := range m.Set {
		out.Set = append(out.Set, ir.Header{Name: string(h.Name), Value: h.Value})
	}
	for _, h := range m.Add {
		out.Add = append(out.Add, ir.Header{Name: string(h.Name), Value: h.Value})
	}
	return out
}

func urlRewrite(f *gwv1.HTTPURLRewriteFilter) *ir.URLRewrite {
	out := &ir.URLRewrite{}
	if f.Hostname != nil {
		out.Hostname = string(*f.Hostname)
	}
	out.PathType, out.Path = pathModifier(f.Path)
	return out
}

// requestRedirect converts a RequestRedirect filter. The CRD defaults the
// status code to 302; the loader applies it.
func requestRedirect(f *gwv1.HTTPRequestRedirectFilter) *ir.Redirect {
	out := &ir.Redirect{StatusCode: deref(f.StatusCode)}
	if f.Scheme != nil {
		out.Scheme = *f.Scheme
	}
	if f.Hostname != nil {
		out.Hostname = string(*f.Hostname)
	}
	if f.Port != nil {
		out.Port = int32(*f.Port)
	}
	out.PathType, out.Path = pathModifier(f.Path)
	return out
}

// redirectProblem checks a redirect's scheme and status code against the
// spec's enums.
func redirectProblem(f *gwv1.HTTPRequestRedirectFilter) string {
	if f.Scheme != nil && *f.Scheme != "http" && *f.Scheme != "https" {
		return fmt.Sprintf("redirect scheme %q is not supported (http or https)", *f.Scheme)
	}
	if f.StatusCode == nil {
		return ""
	}
	switch *f.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return ""
	}
	return fmt.Sprintf("redirect status code %d is not supported (301, 302, 303, 307 or 308)", *f.StatusCode)
}

func pathModifier(p *gwv1.HTTPPathModifier) (string, string) {
	if p == nil {
		return "", ""
	}
	switch p.Type {
	case gwv1.FullPathHTTPPathModifier:
		if p.ReplaceFullPath != nil {
			return string(p.Type), *p.ReplaceFullPath
		}
	case gwv1.PrefixMatchHTTPPathModifier:
		if p.ReplacePrefixMatch != nil {
			return string(p.Type), *p.ReplacePrefixMatch
		}
	}
	return string(p.Type), ""
}
