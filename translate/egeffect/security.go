package egeffect

import (
	"fmt"
	"net/http"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	"github.com/gwsim/gwsim/translate/ir"
)

// AddSecurity adds what a SecurityPolicy does to a request: its CORS, the
// credentials its authentications demand (401 without them; OIDC's login
// redirect, a 302), its external authorization (whose answer is not
// known) and its authorization rules (a denial is a 403).
func AddSecurity(dst *ir.Policies, sp *egv1a1.SecurityPolicy) {
	ref := Ref(SecurityPolicy, sp.Namespace, sp.Name)
	s := sp.Spec
	if s.CORS != nil {
		dst.CORS = &ir.PolicyCORS{Policy: ref, CORS: cors(s.CORS)}
	}
	if e := s.ExtAuth; e != nil {
		dst.ExtAuth = extAuth(ref, e)
	}
	if a := s.APIKeyAuth; a != nil {
		var src []string
		for _, f := range a.ExtractFrom {
			if f == nil {
				continue
			}
			src = append(src, sources(f.Headers, f.Params, f.Cookies)...)
		}
		dst.Credentials = append(dst.Credentials, ir.CredentialCheck{Policy: ref, Type: "APIKey", Sources: src, Status: http.StatusUnauthorized})
	}
	if s.BasicAuth != nil {
		dst.Credentials = append(dst.Credentials, ir.CredentialCheck{Policy: ref, Type: "BasicAuth", Sources: []string{"header Authorization prefix Basic"}, Status: http.StatusUnauthorized})
	}
	if o := s.OIDC; o != nil {
		dst.Credentials = append(dst.Credentials, oidc(ref, o))
	}
	if j := s.JWT; j != nil {
		dst.Credentials = append(dst.Credentials, jwt(ref, j))
	}
	if a := s.Authorization; a != nil {
		dst.Authorization = authorization(ref, a)
	}
	if s.CSRF != nil {
		dst.NotSimulated = deciding(dst.NotSimulated, ref, "spec.csrf", "CSRF protection (a 403 for a cross-origin request that changes state)")
	}
	dst.NotSimulated = append(dst.NotSimulated, securityNotSimulated(ref, s)...)
}

// securityNotSimulated lists what the simulated authentications do besides
// letting a request through or not: the headers they add to or remove
// from the forwarded request, and the OIDC flow past the login redirect.
// None decides whether the request is answered.
func securityNotSimulated(ref ir.PolicyRef, s egv1a1.SecurityPolicySpec) []ir.PolicyField {
	var out []ir.PolicyField
	if a := s.APIKeyAuth; a != nil && (a.ForwardClientIDHeader != nil || a.Sanitize != nil) {
		out = unsimulated(out, ref, "spec.apiKeyAuth", "the client ID header and the key's removal from the forwarded request")
	}
	if b := s.BasicAuth; b != nil && b.ForwardUsernameHeader != nil {
		out = unsimulated(out, ref, "spec.basicAuth.forwardUsernameHeader", "the username header on the forwarded request")
	}
	if j := s.JWT; j != nil {
		for i, p := range j.Providers {
			if len(p.ClaimToHeaders) > 0 {
				out = unsimulated(out, ref, fmt.Sprintf("spec.jwt.providers[%d].claimToHeaders", i), "claims copied to headers of the forwarded request")
			}
			if p.RecomputeRoute != nil && *p.RecomputeRoute {
				out = deciding(out, ref, fmt.Sprintf("spec.jwt.providers[%d].recomputeRoute", i), "routing again on the claims' headers")
			}
		}
	}
	if o := s.OIDC; o != nil {
		if o.DenyRedirect != nil {
			out = deciding(out, ref, "spec.oidc.denyRedirect", "a 401 instead of the login redirect for matching requests")
		}
		if o.ForwardAccessToken != nil || o.ForwardIDToken != nil || o.LogoutPath != nil || o.RefreshToken != nil {
			out = unsimulated(out, ref, "spec.oidc", "token forwarding, logout and refresh")
		}
	}
	return out
}

// cors converts a policy's CORS; without maxAge no Access-Control-Max-Age
// is sent (MaxAge -1).
func cors(c *egv1a1.CORS) ir.CORS {
	out := ir.CORS{
		AllowMethods: c.AllowMethods, AllowHeaders: c.AllowHeaders, ExposeHeaders: c.ExposeHeaders,
		AllowCredentials: c.AllowCredentials != nil && *c.AllowCredentials, MaxAge: -1,
	}
	for _, o := range c.AllowOrigins {
		out.AllowOrigins = append(out.AllowOrigins, string(o))
	}
	if c.MaxAge != nil {
		out.MaxAge = durationSeconds(string(*c.MaxAge))
	}
	return out
}

func extAuth(ref ir.PolicyRef, e *egv1a1.ExtAuth) *ir.PolicyExtAuth {
	out := &ir.PolicyExtAuth{Policy: ref}
	var bc *egv1a1.BackendCluster
	switch {
	case e.GRPC != nil:
		out.Protocol, bc = "GRPC", &e.GRPC.BackendCluster
	case e.HTTP != nil:
		out.Protocol, bc = "HTTP", &e.HTTP.BackendCluster
	}
	if bc != nil {
		out.Service = backendName(ref.Namespace, bc)
	}
	return out
}

// backendName names a BackendCluster's first backend as
// "namespace/name:port" (Kind first when it is not a Service).
func backendName(ns string, bc *egv1a1.BackendCluster) string {
	var r *egv1a1.BackendRef
	switch {
	case len(bc.BackendRefs) > 0:
		r = &bc.BackendRefs[0]
	case bc.BackendRef != nil:
		r = &egv1a1.BackendRef{BackendObjectReference: *bc.BackendRef}
	default:
		return ""
	}
	if r.Namespace != nil {
		ns = string(*r.Namespace)
	}
	name := ns + "/" + string(r.Name)
	if r.Port != nil {
		name += fmt.Sprintf(":%d", *r.Port)
	}
	if r.Kind != nil && *r.Kind != "Service" {
		name = string(*r.Kind) + " " + name
	}
	return name
}

// oidc is the login an OIDC policy demands: a request without the access
// token cookie (AccessToken-<suffix>, or the name cookieNames sets) is
// redirected to the provider's authorization endpoint. With
// passThroughAuthHeader, a bearer token lets the request through too.
func oidc(ref ir.PolicyRef, o *egv1a1.OIDC) ir.CredentialCheck {
	cookie := "AccessToken-*"
	if o.CookieNames != nil && o.CookieNames.AccessToken != nil {
		cookie = *o.CookieNames.AccessToken
	}
	src := []string{"cookie " + cookie}
	if o.PassThroughAuthHeader != nil && *o.PassThroughAuthHeader {
		src = append(src, "header Authorization prefix Bearer")
	}
	loc := strings.TrimSuffix(o.Provider.Issuer, "/") + " (its authorization endpoint)"
	if o.Provider.AuthorizationEndpoint != nil {
		loc = *o.Provider.AuthorizationEndpoint
	}
	return ir.CredentialCheck{Policy: ref, Type: "OIDC", Sources: src, Status: http.StatusFound, Location: loc}
}

// jwt is the token a JWT policy demands. Without extractFrom, Envoy reads
// it from the Authorization header (Bearer) and the access_token query
// parameter; with several providers, the sources of all are tried.
func jwt(ref ir.PolicyRef, j *egv1a1.JWT) ir.CredentialCheck {
	c := ir.CredentialCheck{Policy: ref, Type: "JWT", Status: http.StatusUnauthorized,
		Optional: j.Optional != nil && *j.Optional, FailOpen: j.FailOpen != nil && *j.FailOpen}
	seen := map[string]bool{}
	for _, p := range j.Providers {
		c.Providers = append(c.Providers, p.Name)
		var src []string
		if x := p.ExtractFrom; x == nil {
			src = []string{"header Authorization prefix Bearer", "query access_token"}
		} else {
			for _, h := range x.Headers {
				s := "header " + h.Name
				if h.ValuePrefix != nil && strings.TrimSpace(*h.ValuePrefix) != "" {
					s += " prefix " + strings.TrimSpace(*h.ValuePrefix)
				}
				src = append(src, s)
			}
			src = append(src, sources(nil, x.Params, x.Cookies)...)
		}
		for _, s := range src {
			if !seen[s] {
				seen[s] = true
				c.Sources = append(c.Sources, s)
			}
		}
	}
	return c
}

// sources renders credential sources.
func sources(headers, params, cookies []string) []string {
	var out []string
	for _, h := range headers {
		out = append(out, "header "+h)
	}
	for _, p := range params {
		out = append(out, "query "+p)
	}
	for _, c := range cookies {
		out = append(out, "cookie "+c)
	}
	return out
}
