package egeffect

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// Defaults are how Envoy Gateway's listeners read requests when no
// ClientTrafficPolicy says otherwise: the path normalised with its slashes
// merged, escaped slashes unescaped and redirected to (internal/gatewayapi
// listener.go: MergeSlashes true, EscapedSlashesAction
// UnescapeAndRedirect), and a header name with an underscore refused
// (internal/xds/translator listener.go, buildHeadersWithUnderscoresAction:
// REJECT_REQUEST when nothing is set).
func Defaults() *ir.ClientSettings {
	return &ir.ClientSettings{
		MergeSlashes:           true,
		EscapedSlashes:         string(egv1a1.UnescapeAndRedirect),
		HeadersWithUnderscores: string(egv1a1.WithUnderscoresActionRejectRequest),
	}
}

// Client is how a listener reads requests under a ClientTrafficPolicy:
// its path settings, its action on header names with underscores
// (RejectRequest when unset), and its early request and late response
// headers; the rest is listed as not simulated.
func Client(p *egv1a1.ClientTrafficPolicy) *ir.ClientSettings {
	ref := Ref(ClientTrafficPolicy, p.Namespace, p.Name)
	c := Defaults()
	c.Policy = &ref
	s := p.Spec
	if ps := s.Path; ps != nil {
		if ps.DisableMergeSlashes != nil {
			c.MergeSlashes = !*ps.DisableMergeSlashes
		}
		if ps.EscapedSlashesAction != nil {
			c.EscapedSlashes = string(*ps.EscapedSlashesAction)
		}
	}
	if h := s.Headers; h != nil {
		if h.WithUnderscoresAction != nil {
			c.HeadersWithUnderscores = string(*h.WithUnderscoresAction)
		}
		c.EarlyRequestHeaders = headerModifier(h.EarlyRequestHeaders)
		c.LateResponseHeaders = headerModifier(h.LateResponseHeaders)
	}
	c.NotSimulated = clientNotSimulated(ref, s)
	if h := s.Headers; h != nil {
		for _, f := range []struct {
			field string
			hf    *egv1a1.HTTPHeaderFilter
		}{{"spec.headers.earlyRequestHeaders", h.EarlyRequestHeaders}, {"spec.headers.lateResponseHeaders", h.LateResponseHeaders}} {
			if f.hf != nil && len(f.hf.AddIfAbsent) > 0 {
				c.NotSimulated = unsimulated(c.NotSimulated, ref, f.field+".addIfAbsent", "adding a header only when absent")
			}
			if f.hf != nil && len(f.hf.RemoveOnMatch) > 0 {
				c.NotSimulated = unsimulated(c.NotSimulated, ref, f.field+".removeOnMatch", "removing headers by a name pattern")
			}
		}
	}
	return c
}

// headerModifier converts Envoy Gateway's header filter.
func headerModifier(f *egv1a1.HTTPHeaderFilter) *ir.HeaderModifier {
	if f == nil {
		return nil
	}
	m := &ir.HeaderModifier{Remove: f.Remove}
	for _, h := range f.Set {
		m.Set = append(m.Set, header(h))
	}
	for _, h := range f.Add {
		m.Add = append(m.Add, header(h))
	}
	return m
}

func header(h gwv1.HTTPHeader) ir.Header {
	return ir.Header{Name: string(h.Name), Value: h.Value}
}
