package translate

import (
	"fmt"
	"regexp"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// ruleSettings converts a rule's timeouts, retry and session persistence.
// Values the API server's validation refuses (a malformed duration, a
// backendRequest timeout longer than a non-zero request timeout, a retry
// code outside 400-599, a cookie setting on header persistence) make the
// rule invalid with UnsupportedValue: gwsim reads manifests that never
// went through that validation, and a gateway cannot program them.
func ruleSettings(rule gwv1.HTTPRouteRule, field string) (ir.Action, ruleProblem) {
	var a ir.Action
	var problem ruleProblem
	fail := func(f, msg string) {
		if problem.reason == "" {
			problem = ruleProblem{string(gwv1.RouteReasonUnsupportedValue), field + "." + f + ": " + msg}
		}
	}
	if t := rule.Timeouts; t != nil {
		a.Timeouts = &ir.Timeouts{}
		req, okReq := duration(t.Request)
		back, okBack := duration(t.BackendRequest)
		switch {
		case !okReq:
			fail("timeouts.request", fmt.Sprintf("%q is not a Gateway API duration (GEP-2257, e.g. 10s or 1m30s)", *t.Request))
		case !okBack:
			fail("timeouts.backendRequest", fmt.Sprintf("%q is not a Gateway API duration (GEP-2257, e.g. 10s or 1m30s)", *t.BackendRequest))
		case t.Request != nil && t.BackendRequest != nil && req != 0 && back > req:
			fail("timeouts.backendRequest", fmt.Sprintf("%s is longer than the request timeout %s", *t.BackendRequest, *t.Request))
		}
		if t.Request != nil {
			a.Timeouts.Request = string(*t.Request)
		}
		if t.BackendRequest != nil {
			a.Timeouts.BackendRequest = string(*t.BackendRequest)
		}
	}
	if r := rule.Retry; r != nil {
		a.Retry = &ir.Retry{}
		for _, c := range r.Codes {
			if c < 400 || c > 599 {
				fail("retry.codes", fmt.Sprintf("%d is not a status code between 400 and 599", c))
			}
			a.Retry.Codes = append(a.Retry.Codes, int(c))
		}
		if r.Attempts != nil {
			if *r.Attempts < 1 {
				fail("retry.attempts", fmt.Sprintf("%d is below the minimum of 1", *r.Attempts))
			}
			a.Retry.Attempts = *r.Attempts
		}
		if _, ok := duration(r.Backoff); !ok {
			fail("retry.backoff", fmt.Sprintf("%q is not a Gateway API duration (GEP-2257, e.g. 100ms)", *r.Backoff))
		} else if r.Backoff != nil {
			a.Retry.Backoff = string(*r.Backoff)
		}
	}
	if sp := rule.SessionPersistence; sp != nil {
		var msg string
		a.SessionPersistence, msg = sessionPersistence(sp)
		if msg != "" {
			fail("sessionPersistence", msg)
		}
	}
	return a, problem
}

// sessionPersistence applies the spec's CEL rules. The experimental CRD
// defaults type to Cookie and a cookieConfig's lifetimeType to Session; the
// loader applies it (the standard channel has no sessionPersistence).
func sessionPersistence(sp *gwv1.SessionPersistence) (*ir.SessionPersistence, string) {
	out := &ir.SessionPersistence{Type: string(deref(sp.Type))}
	if sp.SessionName != nil {
		out.SessionName = *sp.SessionName
	}
	if sp.AbsoluteTimeout != nil {
		if _, ok := duration(sp.AbsoluteTimeout); !ok {
			return out, fmt.Sprintf("absoluteTimeout %q is not a Gateway API duration", *sp.AbsoluteTimeout)
		}
		out.AbsoluteTimeout = string(*sp.AbsoluteTimeout)
	}
	switch gwv1.SessionPersistenceType(out.Type) {
	case gwv1.CookieBasedSessionPersistence:
		// A cookie without cookieConfig is a session cookie, as the spec
		// says; the CRD defaults lifetimeType only inside a cookieConfig.
		out.CookieLifetime = string(gwv1.SessionCookieLifetimeType)
		if cc := sp.CookieConfig; cc != nil {
			out.CookieLifetime = string(deref(cc.LifetimeType))
		}
		if out.CookieLifetime == string(gwv1.PermanentCookieLifetimeType) && out.AbsoluteTimeout == "" {
			return out, "a Permanent cookie needs an absoluteTimeout"
		}
		if out.CookieLifetime != string(gwv1.PermanentCookieLifetimeType) && out.CookieLifetime != string(gwv1.SessionCookieLifetimeType) {
			return out, fmt.Sprintf("cookie lifetimeType %q is not supported (Session or Permanent)", out.CookieLifetime)
		}
	case gwv1.HeaderBasedSessionPersistence:
		if sp.CookieConfig != nil {
			return out, "cookieConfig can only be set with type Cookie"
		}
	default:
		return out, fmt.Sprintf("type %q is not supported (Cookie or Header)", out.Type)
	}
	return out, ""
}

// durationRE is the CRD's pattern for a Duration.
var durationRE = regexp.MustCompile(`^([0-9]{1,5}(h|m|s|ms)){1,4}$`)

// duration parses a Gateway API duration (GEP-2257: one to four
// <number><unit> parts, units h, m, s and ms, at most five digits each).
// A nil duration is valid and zero.
func duration(d *gwv1.Duration) (time.Duration, bool) {
	if d == nil {
		return 0, true
	}
	if !durationRE.MatchString(string(*d)) {
		return 0, false
	}
	v, err := time.ParseDuration(string(*d))
	return v, err == nil
}
