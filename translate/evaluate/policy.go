package evaluate

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// The outcomes of an implementation's policies (ir.Policies) and of a
// listener's client settings (ir.ClientSettings).
const (
	// FaultAborted means a fault injection answered instead of the backend.
	FaultAborted Outcome = "FaultAborted"
	// CredentialsRequired means an authentication found no credential in
	// the request: 401, or the OIDC login redirect (302).
	CredentialsRequired Outcome = "CredentialsRequired"
	// AuthorizationDenied means an authorization rule, or its default
	// action, denied the request (403, Envoy's "RBAC: access denied").
	AuthorizationDenied Outcome = "AuthorizationDenied"
	// BadRequest means the listener refused the request before routing
	// (400): an escaped slash or a header name with an underscore that
	// its settings reject.
	BadRequest Outcome = "BadRequest"
	// PathRedirected means the listener redirected the request to its
	// path with escaped slashes unescaped (307) before routing.
	PathRedirected Outcome = "PathRedirected"
	// PolicyInvalid means a policy that covers the rule was refused for
	// its spec and the implementation answers 500 in its place.
	PolicyInvalid Outcome = "PolicyInvalid"
)

// PolicyStep is one thing a policy, or a listener's client settings, did
// with the request, in the order the data plane does them.
type PolicyStep struct {
	// Policy is nil for what the implementation does by default.
	Policy *ir.PolicyRef
	// Effect names what acted: fault, cors, extAuth, APIKey, BasicAuth,
	// OIDC, JWT, authorization, responseOverride, timeouts, retry, path,
	// headers, notSimulated, refused (a policy refused for its spec).
	Effect  string
	Message string
	// Decided marks the step that gave the answer.
	Decided bool
}

// addPolicyStep records a step of policy p.
func (r *Result) addPolicyStep(p ir.PolicyRef, effect, msg string, decided bool) {
	ref := p
	r.PolicySteps = append(r.PolicySteps, PolicyStep{Policy: &ref, Effect: effect, Message: msg, Decided: decided})
}

// answer makes res the gateway's own answer, decided by a policy.
func (r *Result) answer(o Outcome, status int, reason string) {
	r.Outcome, r.Status, r.Reason = o, status, reason
}

// applyPolicies runs the rule's policies ahead of its filters, in the order
// of Envoy's HTTP filter chain. It reports whether one of them answered
// the request.
func applyPolicies(res *Result, p *ir.Policies, req Request) bool {
	if p == nil {
		return false
	}
	if refusedAnswers(res, p.Refused) {
		return true
	}
	for _, f := range p.NotSimulated {
		res.addPolicyNotSimulated(f)
	}
	if f := p.FaultDelay; f != nil {
		res.addPolicyStep(f.Policy, "fault", fmt.Sprintf("fault injection delays %s of requests by %s", percent(f.Percent), f.Delay), false)
	}
	if f := p.FaultAbort; f != nil && abortApplies(res, f) {
		return true
	}
	if c := p.CORS; c != nil && policyCORS(res, c, req) {
		return true
	}
	if e := p.ExtAuth; e != nil {
		res.addPolicyStep(e.Policy, "extAuth", fmt.Sprintf("external authorization asks %s; gwsim cannot know its answer and takes the request as allowed", orWord(e.Service, "its service")), false)
		res.NotSimulated = append(res.NotSimulated, Extension{Use: "policy", Kind: e.Policy.Kind, Namespace: e.Policy.Namespace, Name: e.Policy.Name, Resolution: "resolved", Field: "spec.extAuth"})
	}
	var token string
	for _, c := range p.Credentials {
		stop, t := checkCredential(res, c, req)
		if stop {
			return true
		}
		if t != "" {
			token = t
		}
	}
	if a := p.Authorization; a != nil {
		return authorize(res, a, req, token)
	}
	return false
}

// abortApplies answers the request with the fault's abort when it aborts
// every request; a share below 100% is shown and the request goes on.
func abortApplies(res *Result, f *ir.FaultAbort) bool {
	what := fmt.Sprintf("HTTP status %d", f.Status)
	if f.GRPCStatus != nil {
		what = fmt.Sprintf("gRPC status %d", *f.GRPCStatus)
	}
	switch {
	case f.Percent <= 0:
		res.addPolicyStep(f.Policy, "fault", "fault injection aborts 0% of requests: none", false)
		return false
	case f.Percent < 100:
		res.addPolicyStep(f.Policy, "fault", fmt.Sprintf("fault injection aborts %s of requests with %s; gwsim shows the others, which go on", percent(f.Percent), what), false)
		return false
	}
	status := f.Status
	if f.GRPCStatus != nil {
		status = http.StatusOK // a gRPC abort is a 200 carrying grpc-status
	}
	reason := fmt.Sprintf("fault injection of %s aborts every request with %s", policyName(f.Policy), what)
	res.addPolicyStep(f.Policy, "fault", "fault injection aborts every request with "+what, true)
	res.answer(FaultAborted, status, reason)
	return true
}

// policyCORS applies a policy's CORS: a preflight is answered 200 by the
// gateway (with the Access-Control-* headers when its origin is allowed);
// another request from an allowed origin gets them on its response.
func policyCORS(res *Result, c *ir.PolicyCORS, req Request) bool {
	origin := req.Headers.Get("Origin")
	if origin == "" {
		return false
	}
	allowed := originAllowed(c.CORS.AllowOrigins, origin)
	if isPreflight(req) {
		res.CORSHeaders = preflightHeaders(&c.CORS, req)
		msg := "CORS answers the preflight from allowed origin " + origin
		if !allowed {
			msg = "CORS answers the preflight from " + origin + ", an origin it does not allow, without Access-Control-* headers (the browser blocks the request)"
		}
		res.addPolicyStep(c.Policy, "cors", msg, true)
		res.answer(CORSPreflight, http.StatusOK, "CORS preflight answered by "+policyName(c.Policy))
		return true
	}
	res.CORSHeaders = actualHeaders(&c.CORS, req)
	if allowed {
		res.addPolicyStep(c.Policy, "cors", "CORS allows origin "+origin+": the response gets the Access-Control-* headers", false)
	} else {
		res.addPolicyStep(c.Policy, "cors", "CORS does not allow origin "+origin+": the response has no Access-Control-* headers and the browser blocks it", false)
	}
	return false
}

// addPolicyNotSimulated records a policy field gwsim does not simulate; one
// that can decide the answer makes it unknown.
func (r *Result) addPolicyNotSimulated(f ir.PolicyField) {
	msg := "not simulated: " + f.What
	if f.Field != "" {
		msg = f.Field + " " + msg
	}
	r.addPolicyStep(f.Policy, "notSimulated", msg, false)
	if f.Decides {
		r.NotSimulated = append(r.NotSimulated, Extension{Use: "policy", Kind: f.Policy.Kind, Namespace: f.Policy.Namespace, Name: f.Policy.Name, Resolution: "resolved", Field: f.Field})
	}
}

// policyName is "Kind namespace/name" without the group.
func policyName(p ir.PolicyRef) string {
	kind := p.Kind
	if i := strings.LastIndexByte(kind, '/'); i >= 0 {
		kind = kind[i+1:]
	}
	return kind + " " + p.Namespace + "/" + p.Name
}

func percent(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}

// forwardedPolicySteps shows the policies' timeouts and retry, which
// govern a forwarded request; gwsim shows them and does not play them.
func forwardedPolicySteps(res *Result, p *ir.Policies) {
	if p == nil {
		return
	}
	if t := p.Timeouts; t != nil {
		var parts []string
		for _, f := range []struct{ name, v string }{{"request", t.Request}, {"connection idle", t.ConnectionIdle}, {"connect", t.Connect}} {
			if f.v != "" {
				parts = append(parts, f.name+" "+f.v)
			}
		}
		res.addPolicyStep(t.Policy, "timeouts", "timeouts: "+orWord(strings.Join(parts, ", "), "none set"), false)
	}
	for i := range p.ResponseOverrides {
		o := &p.ResponseOverrides[i]
		if o.Source == "Local" {
			continue
		}
		res.addPolicyStep(o.Policy, "responseOverride", fmt.Sprintf("response override: a backend answer with status %s gets %s instead", spans(o.Codes), overrideWords(o, 0)), false)
	}
	if r := p.Retry; r != nil {
		msg := fmt.Sprintf("retry: up to %d retries", r.Retries)
		var on []string
		on = append(on, r.On...)
		for _, c := range r.Codes {
			on = append(on, strconv.Itoa(c))
		}
		if len(on) > 0 {
			msg += " on " + strings.Join(on, ", ")
		}
		if r.PerRetry != "" {
			msg += ", each try within " + r.PerRetry
		}
		res.addPolicyStep(r.Policy, "retry", msg, false)
	}
}

// spans renders status code ranges: "500-599, 404".
func spans(codes []ir.StatusSpan) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = strconv.Itoa(c.From)
		if c.To != c.From {
			parts[i] += "-" + strconv.Itoa(c.To)
		}
	}
	return strings.Join(parts, ", ")
}

// refusedAnswers names each refused policy and answers 500 when one of
// them fails closed: the implementation configured the rule to answer
// so, ahead of any filter.
func refusedAnswers(res *Result, refused []ir.RefusedPolicy) bool {
	for _, r := range refused {
		msg := strings.TrimSuffix(r.Message, ".")
		if r.FailsClosed {
			res.addPolicyStep(r.Policy, "refused", fmt.Sprintf("refused for its spec (Accepted False, Invalid: %s); none of its effects apply, and the gateway answers 500 in its place", msg), true)
			res.answer(PolicyInvalid, http.StatusInternalServerError,
				fmt.Sprintf("%s is refused for its spec (%s), so the gateway answers 500 instead of applying it", policyName(r.Policy), msg))
			return true
		}
		res.addPolicyStep(r.Policy, "refused", fmt.Sprintf("refused for its spec (Accepted False, Invalid: %s); none of its effects apply", msg), false)
	}
	return false
}
