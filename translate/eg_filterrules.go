package translate

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/util/validation"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
)

// Envoy Gateway's rules for a rule's filter list (envoy-gateway profile,
// StatusChoices.EnvoyFilterRules): its translator walks the filters in
// order (internal/gatewayapi/filters.go ProcessHTTPFilters) and refuses
// the rule, Accepted=False (PartiallyInvalid when other rules stand) with
// UnsupportedValue, when a filter holds what Envoy cannot program: a
// header modifier of the Host header or of a name with '/' or ':', a
// header value outside printable ASCII, a second URL rewrite or redirect,
// a rewrite or redirect hostname that is not a DNS name, a path modifier
// whose type and value disagree, a redirect status Envoy does not send,
// an ExtensionRef to a kind it does not know, an HTTPRouteFilter whose
// regex, body or credential cannot be read; a requestMirror beside a
// direct response or a redirect is IncompatibleFilters. Repeated header modifiers
// merge instead (the CRD's CEL refuses them; the translator does not).
// The facts are Envoy Gateway v1.9.1's; the messages are gwsim's.

// egHeaderValue is what Envoy Gateway accepts as a header value: printable
// ASCII words separated by single spaces or tabs (filters.go
// HeaderValueRegexp).
var egHeaderValue = regexp.MustCompile(`^[!-~]+([\t ]?[!-~]+)*$`)

// egRedirectCodes are the redirect status codes Envoy sends.
var egRedirectCodes = map[int]bool{301: true, 302: true, 303: true, 307: true, 308: true}

// egFilterWalk is what the filters before the current one configured.
type egFilterWalk struct {
	coreHost, corePath, extHost, extPath bool
	redirect, matches, answered          bool
	request, response                    int // headers configured
	mirrors                              int
}

// egFilterProblem returns why Envoy Gateway refuses a rule with these
// filters, or none.
func (w *world) egFilterProblem(r routeInfo, filters []gwv1.HTTPRouteFilter, field string) ruleProblem {
	var st egFilterWalk
	for i, f := range filters {
		if st.answered {
			break // Envoy Gateway reads no filter after a direct response
		}
		var msg string
		switch f.Type {
		case gwv1.HTTPRouteFilterRequestHeaderModifier:
			msg = egHeaderProblem("RequestHeaderModifier", f.RequestHeaderModifier, &st.request, true)
		case gwv1.HTTPRouteFilterResponseHeaderModifier:
			msg = egHeaderProblem("ResponseHeaderModifier", f.ResponseHeaderModifier, &st.response, false)
		case gwv1.HTTPRouteFilterURLRewrite:
			msg = st.coreRewrite(f.URLRewrite)
		case gwv1.HTTPRouteFilterRequestRedirect:
			msg = st.redirectProblem(f.RequestRedirect)
		case gwv1.HTTPRouteFilterExtensionRef:
			msg = w.egExtensionRefProblem(r, f.ExtensionRef, &st)
		case gwv1.HTTPRouteFilterRequestMirror:
			st.mirrors++
		}
		if msg != "" {
			return ruleProblem{string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf("%s[%d]: %s (Envoy Gateway refuses the rule)", field, i, msg)}
		}
	}
	// A mirrored request needs a route to an upstream, which a direct
	// response or a redirect does not have.
	if st.mirrors > 0 && (st.answered || st.redirect) {
		return ruleProblem{string(gwv1.RouteReasonIncompatibleFilters),
			field + ": a requestMirror filter with a direct response or a redirect (Envoy Gateway refuses the rule)"}
	}
	return ruleProblem{}
}

// egHeaderProblem checks a header modifier; count is the number of headers
// the rule's modifiers of that direction configured so far.
func egHeaderProblem(kind string, m *gwv1.HTTPHeaderFilter, count *int, request bool) string {
	if m == nil {
		return ""
	}
	var problems []string
	check := func(verb, name, value string, hasValue bool) {
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf("cannot %s a header with an empty name", verb))
		case strings.ContainsAny(name, "/:") || strings.EqualFold(name, "host"):
			problems = append(problems, fmt.Sprintf("header %q: cannot %s the Host header or a header whose name has '/' or ':'%s", name, verb, hostHint(request, verb)))
		case hasValue && !egHeaderValue.MatchString(value):
			problems = append(problems, fmt.Sprintf("header %q: cannot %s a header whose value is empty or not printable ASCII", name, verb))
		default:
			*count++
		}
	}
	for _, h := range m.Add {
		check("add", string(h.Name), h.Value, true)
	}
	for _, h := range m.Set {
		check("set", string(h.Name), h.Value, true)
	}
	for _, name := range m.Remove {
		check("remove", name, "", false)
	}
	configured := len(m.Add)+len(m.Set)+len(m.Remove) > 0
	switch {
	case configured && *count == 0:
		return kind + " configures no valid header: " + strings.Join(problems, "; ")
	case len(problems) > 0:
		return kind + ": " + strings.Join(problems, "; ")
	}
	return ""
}

func hostHint(request bool, verb string) string {
	if request && verb != "remove" {
		return " (the URLRewrite filter, or an HTTPRouteFilter, changes the host)"
	}
	return ""
}

// coreRewrite checks a Gateway API URLRewrite against the rewrites before.
func (st *egFilterWalk) coreRewrite(rw *gwv1.HTTPURLRewriteFilter) string {
	if rw == nil {
		return ""
	}
	if ((st.coreHost || st.corePath) && (rw.Hostname != nil || rw.Path != nil)) ||
		(rw.Hostname != nil && st.extHost) || (rw.Path != nil && st.extPath) {
		return "a second URL rewrite in one rule"
	}
	if rw.Hostname != nil {
		if msg := egHostnameProblem(string(*rw.Hostname)); msg != "" {
			return "urlRewrite.hostname: " + msg
		}
		st.coreHost = true
	}
	if rw.Path != nil {
		if msg := egPathModifierProblem(*rw.Path); msg != "" {
			return "urlRewrite.path: " + msg
		}
		st.corePath = true
	}
	return ""
}

// redirectProblem checks a RequestRedirect.
func (st *egFilterWalk) redirectProblem(rd *gwv1.HTTPRequestRedirectFilter) string {
	if st.redirect {
		return "a second requestRedirect in one rule"
	}
	if rd == nil {
		return ""
	}
	switch {
	case rd.Scheme != nil && *rd.Scheme != "http" && *rd.Scheme != "https":
		return fmt.Sprintf("requestRedirect.scheme %q: only http and https", *rd.Scheme)
	case rd.Hostname != nil && egHostnameProblem(string(*rd.Hostname)) != "":
		return "requestRedirect.hostname: " + egHostnameProblem(string(*rd.Hostname))
	case rd.Path != nil && rd.Path.Type != gwv1.FullPathHTTPPathModifier && rd.Path.Type != gwv1.PrefixMatchHTTPPathModifier:
		return fmt.Sprintf("requestRedirect.path.type %q: only ReplaceFullPath and ReplacePrefixMatch", rd.Path.Type)
	case rd.StatusCode != nil && !egRedirectCodes[*rd.StatusCode]:
		return fmt.Sprintf("requestRedirect.statusCode %d: Envoy sends 301, 302, 303, 307 or 308", *rd.StatusCode)
	}
	st.redirect = true
	return ""
}

// egHostnameProblem checks a rewrite or redirect hostname as Envoy Gateway
// does (validate.go validateHostname): a DNS subdomain, not an IP.
func egHostnameProblem(h string) string {
	if errs := validation.IsDNS1123Subdomain(h); len(errs) > 0 {
		return fmt.Sprintf("hostname %q is not a DNS name", h)
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return fmt.Sprintf("hostname %q is an IP address", h)
	}
	return ""
}

// egPathModifierProblem checks that a path modifier's type and value agree.
func egPathModifierProblem(p gwv1.HTTPPathModifier) string {
	switch p.Type {
	case gwv1.FullPathHTTPPathModifier:
		if p.ReplacePrefixMatch != nil || p.ReplaceFullPath == nil {
			return "type ReplaceFullPath takes replaceFullPath alone"
		}
	case gwv1.PrefixMatchHTTPPathModifier:
		if p.ReplaceFullPath != nil || p.ReplacePrefixMatch == nil {
			return "type ReplacePrefixMatch takes replacePrefixMatch alone"
		}
	default:
		return fmt.Sprintf("type %q: only ReplaceFullPath and ReplacePrefixMatch", p.Type)
	}
	return ""
}

// egExtensionRefProblem checks an ExtensionRef: Envoy Gateway knows its
// own HTTPRouteFilter kind alone (an extension server adds others, which
// gwsim does not assume). An HTTPRouteFilter the input lacks is the
// unresolved filter gwsim already answers with a 500.
func (w *world) egExtensionRefProblem(r routeInfo, ref *gwv1.LocalObjectReference, st *egFilterWalk) string {
	if ref == nil {
		return "an ExtensionRef filter without extensionRef"
	}
	if string(ref.Group) != profile.HTTPRouteFilterKind.Group || string(ref.Kind) != profile.HTTPRouteFilterKind.Kind {
		st.answered = true
		return fmt.Sprintf("ExtensionRef to unknown kind %s/%s", ref.Group, ref.Kind)
	}
	hrf, ok := w.egRouteFilters[keyOf(r.meta.Namespace, string(ref.Name))]
	if !ok {
		return ""
	}
	return w.egRouteFilterProblem(hrf, st)
}

// egRouteFilterProblem checks one HTTPRouteFilter against the filters
// before it.
func (w *world) egRouteFilterProblem(hrf *egv1a1.HTTPRouteFilter, st *egFilterWalk) string {
	name := "HTTPRouteFilter " + hrf.Name
	if len(hrf.Spec.Matches) > 0 {
		if st.matches {
			return name + ": a second HTTPRouteFilter with matches in one rule"
		}
		st.matches = true
	}
	if rw := hrf.Spec.URLRewrite; rw != nil {
		if msg := st.extRewrite(rw); msg != "" {
			return name + ": " + msg
		}
	}
	if dr := hrf.Spec.DirectResponse; dr != nil {
		st.answered = true
		if dr.Body != nil {
			if _, msg := w.egResponseBody(hrf.Namespace, dr.Body); msg != "" {
				return name + ": " + msg
			}
		}
	}
	if ci := hrf.Spec.CredentialInjection; ci != nil {
		if msg := w.egCredentialProblem(hrf, ci.Credential.ValueRef); msg != "" {
			return name + ": " + msg
		}
	}
	return ""
}

// extRewrite checks an HTTPRouteFilter's urlRewrite against the rewrites
// before.
func (st *egFilterWalk) extRewrite(rw *egv1a1.HTTPURLRewriteFilter) string {
	if ((st.extHost || st.extPath) && (rw.Hostname != nil || rw.Path != nil)) ||
		(rw.Hostname != nil && st.coreHost) || (rw.Path != nil && st.corePath) {
		return "a second URL rewrite in one rule"
	}
	if p := rw.Path; p != nil && p.Type == egv1a1.RegexHTTPPathModifier {
		if p.ReplaceRegexMatch == nil || p.ReplaceRegexMatch.Pattern == "" {
			return "urlRewrite.path.replaceRegexMatch.pattern is not set"
		}
		if _, err := regexp.Compile(p.ReplaceRegexMatch.Pattern); err != nil {
			return fmt.Sprintf("urlRewrite.path.replaceRegexMatch.pattern %q is not a valid RE2 regular expression", p.ReplaceRegexMatch.Pattern)
		}
		st.extPath = true
	}
	if h := rw.Hostname; h != nil {
		switch h.Type {
		case egv1a1.HeaderHTTPHostnameModifier:
			if h.Header == nil {
				return "urlRewrite.hostname.header is not set"
			}
		case egv1a1.PathRegexHTTPHostnameModifier:
			if h.PathRegex == nil || h.PathRegex.Pattern == "" || h.PathRegex.Substitution == "" {
				return "urlRewrite.hostname.pathRegex needs a pattern and a substitution"
			}
			if _, err := regexp.Compile(h.PathRegex.Pattern); err != nil {
				return fmt.Sprintf("urlRewrite.hostname.pathRegex.pattern %q is not a valid RE2 regular expression", h.PathRegex.Pattern)
			}
		}
		st.extHost = true
	}
	return ""
}

// egCredentialProblem checks the Secret a credentialInjection reads: it
// exists (a ReferenceGrant allowing it in another namespace) and holds a
// non-empty "credential" key.
func (w *world) egCredentialProblem(hrf *egv1a1.HTTPRouteFilter, ref gwv1.SecretObjectReference) string {
	ns := hrf.Namespace
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	if ns != hrf.Namespace && !w.allowedByGrant(grantRef{Group: profile.HTTPRouteFilterKind.Group, Kind: profile.HTTPRouteFilterKind.Kind, Namespace: hrf.Namespace},
		grantRef{Kind: "Secret", Namespace: ns, Name: string(ref.Name)}) {
		return fmt.Sprintf("credential Secret %s/%s is in another namespace and no ReferenceGrant allows it", ns, ref.Name)
	}
	s, ok := w.secrets[keyOf(ns, string(ref.Name))]
	if !ok {
		return fmt.Sprintf("credential Secret %s/%s does not exist", ns, ref.Name)
	}
	if _, has := s.Data[egv1a1.InjectedCredentialKey]; has && diag.Encrypted(s.Annotations) {
		return "" // its value is unknown, not empty
	}
	if len(s.Data[egv1a1.InjectedCredentialKey]) == 0 {
		return fmt.Sprintf("credential Secret %s/%s has no %q key", ns, ref.Name, egv1a1.InjectedCredentialKey)
	}
	return ""
}
