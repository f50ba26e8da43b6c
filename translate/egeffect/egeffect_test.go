package egeffect

import (
	"encoding/json"
	"testing"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/translate/ir"
)

func decode[T any](t *testing.T, doc string) *T {
	t.Helper()
	var v T
	if err := yaml.UnmarshalStrict([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAddSecurity(t *testing.T) {
	sp := decode[egv1a1.SecurityPolicy](t, `
metadata: {name: sec, namespace: default}
spec:
  cors: {allowOrigins: ["https://*.example.com"], allowMethods: [GET], maxAge: 10m}
  basicAuth: {users: {name: users}}
  jwt:
    providers:
    - name: idp
      remoteJWKS: {uri: "https://idp/jwks"}
  authorization:
    rules:
    - name: admins
      action: Allow
      principal:
        clientCIDRs: [10.0.0.0/8]
        jwt: {provider: idp, claims: [{name: org.role, values: [admin, root]}], scopes: [write]}
    - action: Deny
      operation: {methods: [DELETE], path: {value: /admin}}
      cel: "request.size > 10"
  csrf: {}
`)
	var p ir.Policies
	AddSecurity(&p, sp)
	ref := Ref(SecurityPolicy, "default", "sec")
	if p.CORS == nil || p.CORS.CORS.MaxAge != 600 || p.CORS.Policy != ref {
		t.Errorf("cors: %s", jsonOf(t, p.CORS))
	}
	if got := jsonOf(t, p.Credentials); got != `[{"policy":{"kind":"gateway.envoyproxy.io/SecurityPolicy","namespace":"default","name":"sec"},"type":"BasicAuth","sources":["header Authorization prefix Basic"],"status":401},`+
		`{"policy":{"kind":"gateway.envoyproxy.io/SecurityPolicy","namespace":"default","name":"sec"},"type":"JWT","sources":["header Authorization prefix Bearer","query access_token"],"status":401,"providers":["idp"]}]` {
		t.Errorf("credentials: %s", got)
	}
	a := p.Authorization
	if a == nil || a.DefaultAction != "Deny" || len(a.Rules) != 2 {
		t.Fatalf("authorization: %s", jsonOf(t, a))
	}
	if r := a.Rules[0]; r.Name != "admins" || r.JWTProvider != "idp" || r.Claims[0].Value != "admin\nroot" || r.Scopes[0] != "write" || r.ClientCIDRs[0] != "10.0.0.0/8" {
		t.Errorf("rule 0: %s", jsonOf(t, r))
	}
	if r := a.Rules[1]; r.Path == nil || r.Path.Type != "PathPrefix" || len(r.NotSimulated) != 1 {
		t.Errorf("rule 1: %s", jsonOf(t, r))
	}
	if len(p.NotSimulated) != 1 || p.NotSimulated[0].Field != "spec.csrf" || !p.NotSimulated[0].Decides {
		t.Errorf("not simulated: %s", jsonOf(t, p.NotSimulated))
	}
}

func TestAddBackendTraffic(t *testing.T) {
	btp := decode[egv1a1.BackendTrafficPolicy](t, `
metadata: {name: btp, namespace: default}
spec:
  faultInjection: {abort: {httpStatus: 503}, delay: {fixedDelay: 2s, percentage: 50}}
  responseOverride:
  - match: {statusCodes: [{type: Range, range: {start: 500, end: 599}}]}
    response: {statusCode: 503, contentType: text/plain, body: {type: Inline, inline: "sorry"}}
  - match: {statusCodes: [{value: 404}]}
    redirect: {hostname: www.example.com, scheme: https}
  retry: {numRetries: 3, retryOn: {triggers: [reset], httpStatusCodes: [502]}}
  timeout: {http: {requestTimeout: 5s}}
  rateLimit: {type: Local, local: {rules: [{limit: {requests: 1, unit: Second}}]}}
`)
	var p ir.Policies
	AddBackendTraffic(&p, btp, func(ns string, b *egv1a1.CustomResponseBody) (string, string) { return *b.Inline, "" })
	if f := p.FaultAbort; f == nil || f.Status != 503 || f.Percent != 100 {
		t.Errorf("abort: %s", jsonOf(t, f))
	}
	if f := p.FaultDelay; f == nil || f.Delay != "2s" || f.Percent != 50 {
		t.Errorf("delay: %s", jsonOf(t, f))
	}
	if got := jsonOf(t, p.ResponseOverrides); got != `[{"policy":{"kind":"gateway.envoyproxy.io/BackendTrafficPolicy","namespace":"default","name":"btp"},"codes":[{"from":500,"to":599}],"source":"All","status":503,"contentType":"text/plain","body":"sorry"},`+
		`{"policy":{"kind":"gateway.envoyproxy.io/BackendTrafficPolicy","namespace":"default","name":"btp"},"codes":[{"from":404,"to":404}],"source":"All","status":302,"location":"https://www.example.com\u003cpath\u003e"}]` {
		t.Errorf("overrides: %s", got)
	}
	if r := p.Retry; r == nil || r.Retries != 3 || r.On[0] != "reset" || r.Codes[0] != 502 {
		t.Errorf("retry: %s", jsonOf(t, r))
	}
	if p.Timeouts == nil || p.Timeouts.Request != "5s" {
		t.Errorf("timeouts: %s", jsonOf(t, p.Timeouts))
	}
	if len(p.NotSimulated) != 1 || p.NotSimulated[0].Field != "spec.rateLimit" || p.NotSimulated[0].Decides {
		t.Errorf("not simulated: %s", jsonOf(t, p.NotSimulated))
	}
}

func TestClient(t *testing.T) {
	if got := jsonOf(t, Defaults()); got != `{"mergeSlashes":true,"escapedSlashes":"UnescapeAndRedirect","headersWithUnderscores":"RejectRequest"}` {
		t.Errorf("defaults: %s", got)
	}
	ctp := decode[egv1a1.ClientTrafficPolicy](t, `
metadata: {name: ctp, namespace: default}
spec:
  path: {disableMergeSlashes: true, escapedSlashesAction: UnescapeAndForward}
  headers:
    withUnderscoresAction: DropHeader
    earlyRequestHeaders: {set: [{name: x-tenant, value: a}], remove: [x-debug]}
  clientIPDetection: {xForwardedFor: {numTrustedHops: 1}}
`)
	c := Client(ctp)
	if c.MergeSlashes || c.EscapedSlashes != "UnescapeAndForward" || c.HeadersWithUnderscores != "DropHeader" || c.Policy == nil {
		t.Errorf("client: %s", jsonOf(t, c))
	}
	if m := c.EarlyRequestHeaders; m == nil || m.Set[0].Name != "x-tenant" || m.Remove[0] != "x-debug" {
		t.Errorf("early headers: %s", jsonOf(t, m))
	}
	if len(c.NotSimulated) != 1 || !c.NotSimulated[0].Decides {
		t.Errorf("not simulated: %s", jsonOf(t, c.NotSimulated))
	}
}
