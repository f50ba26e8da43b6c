package egeffect

import (
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	"github.com/gwsim/gwsim/translate/ir"
)

// authorization converts a policy's authorization: rules in order, the
// first that matches deciding; without defaultAction the default is Deny
// (Envoy Gateway's API: "if not specified, the default action is Deny").
func authorization(ref ir.PolicyRef, a *egv1a1.Authorization) *ir.Authorization {
	out := &ir.Authorization{Policy: ref, DefaultAction: string(egv1a1.AuthorizationActionDeny)}
	if a.DefaultAction != nil {
		out.DefaultAction = string(*a.DefaultAction)
	}
	for _, r := range a.Rules {
		out.Rules = append(out.Rules, authorizationRule(r))
	}
	return out
}

func authorizationRule(r egv1a1.AuthorizationRule) ir.AuthorizationRule {
	out := ir.AuthorizationRule{Action: string(r.Action)}
	if r.Name != nil {
		out.Name = *r.Name
	}
	if op := r.Operation; op != nil {
		for _, m := range op.Methods {
			out.Methods = append(out.Methods, string(m))
		}
		if p := op.Path; p != nil {
			typ := "PathPrefix"
			if p.Type != nil {
				typ = string(*p.Type)
			}
			out.Path = &ir.ValueMatch{Name: ":path", Type: typ, Value: p.Value}
		}
	}
	if r.CEL != nil {
		out.NotSimulated = append(out.NotSimulated, "the CEL expression")
	}
	p := r.Principal
	if p == nil {
		return out
	}
	for _, c := range p.ClientCIDRs {
		out.ClientCIDRs = append(out.ClientCIDRs, string(c))
	}
	for _, h := range p.Headers {
		out.Headers = append(out.Headers, ir.ValueMatch{Name: h.Name, Type: "Exact", Value: strings.Join(h.Values, "\n")})
	}
	if j := p.JWT; j != nil {
		out.JWTProvider = j.Provider
		for _, c := range j.Claims {
			typ := string(egv1a1.JWTClaimValueTypeString)
			if c.ValueType != nil {
				typ = string(*c.ValueType)
			}
			out.Claims = append(out.Claims, ir.ValueMatch{Name: c.Name, Type: typ, Value: strings.Join(c.Values, "\n")})
		}
		for _, s := range j.Scopes {
			out.Scopes = append(out.Scopes, string(s))
		}
	}
	if len(p.ClientIPGeoLocations) > 0 {
		out.NotSimulated = append(out.NotSimulated, "the client's geolocation")
	}
	return out
}
