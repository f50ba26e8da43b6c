package translate

import (
	"fmt"
	"net/http"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// httpFilters converts a rule's filters in order. RequestRedirect becomes the
// rule's action (it answers instead of forwarding); filters gwsim does not
// simulate yet are reported, never dropped silently.
func (w *world) httpFilters(res *routeResult, filters []gwv1.HTTPRouteFilter, field string) ([]ir.Filter, *ir.Redirect) {
	var out []ir.Filter
	var redirect *ir.Redirect
	for i, f := range filters {
		ff := fmt.Sprintf("%s[%d]", field, i)
		switch f.Type {
		case gwv1.HTTPRouteFilterRequestHeaderModifier:
			if f.RequestHeaderModifier != nil {
				out = append(out, ir.Filter{Type: string(f.Type), RequestHeaderModifier: headerModifier(f.RequestHeaderModifier)})
			}
		case gwv1.HTTPRouteFilterResponseHeaderModifier:
			if f.ResponseHeaderModifier != nil {
				out = append(out, ir.Filter{Type: string(f.Type), ResponseHeaderModifier: headerModifier(f.ResponseHeaderModifier)})
			}
		case gwv1.HTTPRouteFilterURLRewrite:
			if f.URLRewrite != nil {
				out = append(out, ir.Filter{Type: string(f.Type), URLRewrite: urlRewrite(f.URLRewrite)})
			}
		case gwv1.HTTPRouteFilterRequestRedirect:
			if f.RequestRedirect != nil {
				redirect = requestRedirect(f.RequestRedirect)
			}
		default:
			res.findings = append(res.findings, w.routeFinding(res.info, diag.Warning, ff, diag.ReasonNotSupportedYet,
				fmt.Sprintf("filter type %s is not simulated yet; it is left out of the IR", f.Type)))
		}
	}
	return out, redirect
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

// requestRedirect converts a RequestRedirect filter; the status code
// defaults to 302 as the spec says.
func requestRedirect(f *gwv1.HTTPRequestRedirectFilter) *ir.Redirect {
	out := &ir.Redirect{StatusCode: http.StatusFound}
	if f.Scheme != nil {
		out.Scheme = *f.Scheme
	}
	if f.Hostname != nil {
		out.Hostname = string(*f.Hostname)
	}
	if f.Port != nil {
		out.Port = int32(*f.Port)
	}
	if f.StatusCode != nil {
		out.StatusCode = *f.StatusCode
	}
	out.PathType, out.Path = pathModifier(f.Path)
	return out
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
