package evaluate

import (
	"encoding/base64"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

var (
	secRef = ir.PolicyRef{Kind: "gateway.envoyproxy.io/SecurityPolicy", Namespace: "default", Name: "sec"}
	btpRef = ir.PolicyRef{Kind: "gateway.envoyproxy.io/BackendTrafficPolicy", Namespace: "default", Name: "btp"}
)

// policyRoute is oneRoute with policies p, forwarding to default/app:80.
func policyRoute(p *ir.Policies) ir.IR {
	return oneRoute(ir.Route{Action: ir.Action{Backends: backends("default/app:80")}, Policies: p})
}

// jwtToken builds an unsigned compact JWT with the given JSON claims.
func jwtToken(claims string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none"}`)) + "." + enc([]byte(claims)) + ".sig"
}

func TestPolicyEffects(t *testing.T) {
	deny := &ir.Authorization{Policy: secRef, DefaultAction: "Deny", Rules: []ir.AuthorizationRule{
		{Name: "office", Action: "Allow", ClientCIDRs: []string{"10.0.0.0/8"}},
		{Action: "Allow", Headers: []ir.ValueMatch{{Name: "x-team", Type: "Exact", Value: "a\nb"}}},
		{Action: "Allow", JWTProvider: "idp", Claims: []ir.ValueMatch{{Name: "org.role", Type: "String", Value: "admin"}}},
	}}
	jwtCheck := ir.CredentialCheck{Policy: secRef, Type: "JWT", Sources: []string{"header Authorization prefix Bearer", "query access_token"}, Status: 401}
	tests := []struct {
		name     string
		p        *ir.Policies
		headers  http.Header
		path     string
		method   string
		clientIP string
		outcome  Outcome
		status   int
		unknown  bool
	}{
		{name: "abort", p: &ir.Policies{FaultAbort: &ir.FaultAbort{Policy: btpRef, Status: 503, Percent: 100}}, outcome: FaultAborted, status: 503},
		{name: "abort share", p: &ir.Policies{FaultAbort: &ir.FaultAbort{Policy: btpRef, Status: 503, Percent: 50}}, outcome: Routed, status: 200},
		{name: "refused, failing closed", p: &ir.Policies{Refused: []ir.RefusedPolicy{{Policy: btpRef, Message: "RequestBuffer: out of range.", FailsClosed: true}}}, outcome: PolicyInvalid, status: 500},
		{name: "refused, leaving it open", p: &ir.Policies{Refused: []ir.RefusedPolicy{{Policy: secRef, Message: "ExtAuth: service x not found."}}}, outcome: Routed, status: 200},
		{name: "abort overridden", p: &ir.Policies{
			FaultAbort:        &ir.FaultAbort{Policy: btpRef, Status: 503, Percent: 100},
			ResponseOverrides: []ir.ResponseOverride{{Policy: btpRef, Codes: []ir.StatusSpan{{From: 500, To: 599}}, Source: "All", Status: 418}},
		}, outcome: ResponseOverridden, status: 418},
		{name: "override for backends only", p: &ir.Policies{
			FaultAbort:        &ir.FaultAbort{Policy: btpRef, Status: 503, Percent: 100},
			ResponseOverrides: []ir.ResponseOverride{{Policy: btpRef, Codes: []ir.StatusSpan{{From: 503, To: 503}}, Source: "Backend", Status: 418}},
		}, outcome: FaultAborted, status: 503},
		{name: "basic auth missing", p: &ir.Policies{Credentials: []ir.CredentialCheck{{Policy: secRef, Type: "BasicAuth", Sources: []string{"header Authorization prefix Basic"}, Status: 401}}}, outcome: CredentialsRequired, status: 401},
		{name: "basic auth given", p: &ir.Policies{Credentials: []ir.CredentialCheck{{Policy: secRef, Type: "BasicAuth", Sources: []string{"header Authorization prefix Basic"}, Status: 401}}},
			headers: http.Header{"Authorization": {"Basic dTpw"}}, outcome: Routed, status: 200},
		{name: "api key in a query", p: &ir.Policies{Credentials: []ir.CredentialCheck{{Policy: secRef, Type: "APIKey", Sources: []string{"header x-api-key", "query key"}, Status: 401}}},
			path: "/?key=k1", outcome: Routed, status: 200},
		{name: "oidc redirect", p: &ir.Policies{Credentials: []ir.CredentialCheck{{Policy: secRef, Type: "OIDC", Sources: []string{"cookie AccessToken-*"}, Status: 302, Location: "https://idp/authorize"}}}, outcome: CredentialsRequired, status: 302},
		{name: "oidc cookie", p: &ir.Policies{Credentials: []ir.CredentialCheck{{Policy: secRef, Type: "OIDC", Sources: []string{"cookie AccessToken-*"}, Status: 302}}},
			headers: http.Header{"Cookie": {"AccessToken-abc=t"}}, outcome: Routed, status: 200},
		{name: "jwt malformed", p: &ir.Policies{Credentials: []ir.CredentialCheck{jwtCheck}}, headers: http.Header{"Authorization": {"Bearer nope"}}, outcome: CredentialsRequired, status: 401},
		{name: "cidr allowed", p: &ir.Policies{Authorization: deny}, clientIP: "10.1.2.3", outcome: Routed, status: 200},
		{name: "cidr unknown", p: &ir.Policies{Authorization: deny}, outcome: AuthorizationDenied, status: 403, unknown: true},
		{name: "cidr denied", p: &ir.Policies{Authorization: deny}, clientIP: "192.0.2.1", outcome: AuthorizationDenied, status: 403},
		{name: "header allowed", p: &ir.Policies{Authorization: deny}, clientIP: "192.0.2.1", headers: http.Header{"X-Team": {"b"}}, outcome: Routed, status: 200},
		{name: "claim allowed", p: &ir.Policies{Credentials: []ir.CredentialCheck{jwtCheck}, Authorization: deny}, clientIP: "192.0.2.1",
			headers: http.Header{"Authorization": {"Bearer " + jwtToken(`{"org":{"role":"admin"}}`)}}, outcome: Routed, status: 200},
		{name: "claim denied", p: &ir.Policies{Credentials: []ir.CredentialCheck{jwtCheck}, Authorization: deny}, clientIP: "192.0.2.1",
			headers: http.Header{"Authorization": {"Bearer " + jwtToken(`{"org":{"role":"dev"}}`)}}, outcome: AuthorizationDenied, status: 403},
		{name: "cors preflight", p: &ir.Policies{CORS: &ir.PolicyCORS{Policy: secRef, CORS: ir.CORS{AllowOrigins: []string{"https://a.example"}, MaxAge: -1}}},
			method: "OPTIONS", headers: http.Header{"Origin": {"https://b.example"}, "Access-Control-Request-Method": {"GET"}}, outcome: CORSPreflight, status: 200},
		{name: "ext auth", p: &ir.Policies{ExtAuth: &ir.PolicyExtAuth{Policy: secRef}}, outcome: Routed, status: 200, unknown: true},
		{name: "patch policy", p: &ir.Policies{NotSimulated: []ir.PolicyField{{Policy: secRef, What: "the policy", Decides: true}}}, outcome: Routed, status: 200, unknown: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Host: "example.org", Port: 80, Path: tt.path, Method: tt.method, Headers: tt.headers, ClientIP: tt.clientIP}
			if req.Headers == nil {
				req.Headers = http.Header{}
			}
			res := Evaluate(policyRoute(tt.p), req)
			if res.Outcome != tt.outcome || res.Status != tt.status {
				t.Errorf("got %s %d (%s), want %s %d", res.Outcome, res.Status, res.Reason, tt.outcome, tt.status)
			}
			if got := len(res.NotSimulated) > 0; got != tt.unknown {
				t.Errorf("answer unknown = %v, want %v (%v)", got, tt.unknown, res.PolicySteps)
			}
		})
	}
}

// TestClientSettings covers what a listener does before routing under
// Envoy Gateway's settings: escaped slashes redirected, rejected or
// forwarded; slashes merged or not; underscores refused or dropped; early
// headers changing what routing sees.
func TestClientSettings(t *testing.T) {
	eg := func(mod func(*ir.ClientSettings)) *ir.ClientSettings {
		c := &ir.ClientSettings{MergeSlashes: true, EscapedSlashes: "UnescapeAndRedirect", HeadersWithUnderscores: "RejectRequest"}
		if mod != nil {
			mod(c)
		}
		return c
	}
	tests := []struct {
		name    string
		c       *ir.ClientSettings
		path    string
		headers http.Header
		outcome Outcome
		status  int
		routed  string // the path routing sees
	}{
		{name: "redirect", c: eg(nil), path: "/a%2Fb", outcome: PathRedirected, status: 307},
		{name: "reject", c: eg(func(c *ir.ClientSettings) { c.EscapedSlashes = "RejectRequest" }), path: "/a%2fb", outcome: BadRequest, status: 400},
		{name: "forward", c: eg(func(c *ir.ClientSettings) { c.EscapedSlashes = "UnescapeAndForward" }), path: "/a%2Fb", outcome: Routed, status: 200, routed: "/a/b"},
		{name: "keep", c: eg(func(c *ir.ClientSettings) { c.EscapedSlashes = "KeepUnchanged" }), path: "/a%2Fb", outcome: Routed, status: 200, routed: "/a%2Fb"},
		{name: "merge", c: eg(nil), path: "/a//b/./c", outcome: Routed, status: 200, routed: "/a/b/c"},
		{name: "no merge", c: eg(func(c *ir.ClientSettings) { c.MergeSlashes = false }), path: "/a//b", outcome: Routed, status: 200, routed: "/a//b"},
		{name: "underscore refused", c: eg(nil), headers: http.Header{"X_user": {"1"}}, outcome: BadRequest, status: 400},
		{name: "underscore dropped", c: eg(func(c *ir.ClientSettings) { c.HeadersWithUnderscores = "DropHeader" }), headers: http.Header{"X_user": {"1"}}, outcome: RouteNotFound, status: 404},
		{name: "early header", c: eg(func(c *ir.ClientSettings) {
			c.EarlyRequestHeaders = &ir.HeaderModifier{Set: []ir.Header{{Name: "X-User", Value: "1"}}}
		}), outcome: Routed, status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			route := ir.Route{Action: ir.Action{Backends: backends("default/app:80")}}
			model := oneRoute(route)
			port := &model.Gateways[0].Listeners[0]
			port.Listeners[0].Client = tt.c
			if tt.name == "underscore dropped" || tt.name == "early header" {
				port.VirtualHosts[0].Routes[0].Match.Headers = []ir.ValueMatch{{Name: "x-user", Type: "Exact", Value: "1"}}
			}
			req := Request{Host: "example.org", Port: 80, Path: tt.path, Headers: tt.headers}
			if req.Headers == nil {
				req.Headers = http.Header{}
			}
			res := Evaluate(model, req)
			if res.Outcome != tt.outcome || res.Status != tt.status {
				t.Fatalf("got %s %d (%s), want %s %d", res.Outcome, res.Status, res.Reason, tt.outcome, tt.status)
			}
			if tt.routed != "" && res.Forwarded.Path != tt.routed {
				t.Errorf("routed path %q, want %q", res.Forwarded.Path, tt.routed)
			}
		})
	}
}

// TestExchangeOverride checks that a response override replaces a
// backend's answer when its source allows, and that the listener's late
// response headers go on every answer.
func TestExchangeOverride(t *testing.T) {
	p := &ir.Policies{ResponseOverrides: []ir.ResponseOverride{{Policy: btpRef, Codes: []ir.StatusSpan{{From: 500, To: 599}}, Source: "Backend", Status: 503, ContentType: "text/plain"}}}
	model := policyRoute(p)
	model.Gateways[0].Clusters = []ir.Cluster{{Name: "default/app:80", Endpoints: []ir.Endpoint{{Address: "10.0.0.1", Port: 80}}}}
	model.Gateways[0].Listeners[0].Listeners[0].Client = &ir.ClientSettings{MergeSlashes: true, EscapedSlashes: "KeepUnchanged", HeadersWithUnderscores: "Allow",
		LateResponseHeaders: &ir.HeaderModifier{Set: []ir.Header{{Name: "X-Edge", Value: "1"}}}}
	res := Evaluate(model, Request{Host: "example.org", Port: 80, Headers: http.Header{}})
	for _, tt := range []struct {
		backend int
		want    int
		outcome Outcome
	}{{200, 200, Routed}, {502, 503, ResponseOverridden}} {
		got := Exchange(res, func(Target) Answer { return Answer{Status: tt.backend} }, rand.New(rand.NewPCG(1, 2)))
		if got.Status != tt.want || got.Outcome != tt.outcome || got.Headers.Get("X-Edge") != "1" {
			t.Errorf("backend %d: got %s %d %v, want %s %d with X-Edge", tt.backend, got.Outcome, got.Status, got.Headers, tt.outcome, tt.want)
		}
	}
}

// TestGRPCAbort checks that a fault abort given as a gRPC status is a 200
// carrying it.
func TestGRPCAbort(t *testing.T) {
	code := int32(14)
	res := Evaluate(policyRoute(&ir.Policies{FaultAbort: &ir.FaultAbort{Policy: btpRef, GRPCStatus: &code, Percent: 100}}), Request{Host: "example.org", Port: 80, Headers: http.Header{}})
	if res.Outcome != FaultAborted || res.Status != 200 || GRPCStatus(res) != "UNAVAILABLE" {
		t.Errorf("got %s %d %s, want FaultAborted 200 UNAVAILABLE", res.Outcome, res.Status, GRPCStatus(res))
	}
}
