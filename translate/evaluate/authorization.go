package evaluate

import (
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// verdict is a condition's answer: it holds, it does not, or gwsim cannot
// tell (a client address the request does not give, a CEL expression).
type verdict int

const (
	holds verdict = iota
	fails
	unknown
)

// authorize applies the authorization rules in order: the first rule whose
// every condition holds decides; without one, the default action does. A
// rule gwsim cannot decide is passed over, and the answer is then not
// known. A denial is Envoy RBAC's 403.
func authorize(res *Result, a *ir.Authorization, req Request, token string) bool {
	claims, _ := jwtClaims(token)
	undecided := ""
	action, by := a.DefaultAction, "the default action"
	for i, r := range a.Rules {
		v, why := ruleVerdict(r, req, claims)
		if v == fails {
			continue
		}
		if v == unknown {
			if undecided == "" {
				undecided = fmt.Sprintf("%s (%s)", ruleName(i, r), why)
			}
			continue
		}
		action, by = r.Action, ruleName(i, r)
		if why != "" {
			by += " (" + why + ")"
		}
		break
	}
	if undecided != "" {
		res.addPolicyStep(a.Policy, "authorization", "authorization cannot decide "+undecided+"; gwsim passes over it", false)
		res.NotSimulated = append(res.NotSimulated, Extension{Use: "policy", Kind: a.Policy.Kind, Namespace: a.Policy.Namespace, Name: a.Policy.Name, Resolution: "resolved", Field: "spec.authorization"})
	}
	if action == "Allow" {
		res.addPolicyStep(a.Policy, "authorization", "authorization allows the request by "+by, false)
		return false
	}
	res.addPolicyStep(a.Policy, "authorization", "authorization denies the request by "+by+": 403", true)
	res.answer(AuthorizationDenied, http.StatusForbidden, fmt.Sprintf("authorization of %s denies the request by %s; Envoy answers \"RBAC: access denied\"", policyName(a.Policy), by))
	return true
}

func ruleName(i int, r ir.AuthorizationRule) string {
	if r.Name != "" {
		return fmt.Sprintf("rule %d %q", i, r.Name)
	}
	return fmt.Sprintf("rule %d", i)
}

// ruleVerdict decides whether every condition of r holds for req; why
// names the conditions that decided.
func ruleVerdict(r ir.AuthorizationRule, req Request, claims map[string]any) (verdict, string) {
	var why []string
	result := holds
	check := func(v verdict, what string) {
		switch {
		case v == fails:
			result = fails
		case v == unknown && result == holds:
			result = unknown
			why = append(why, what)
		case v == holds:
			why = append(why, what)
		}
	}
	if len(r.Methods) > 0 {
		check(when(slices.Contains(r.Methods, req.Method)), "method "+req.Method)
	}
	if r.Path != nil {
		path, _ := splitTarget(req.Path)
		check(when(pathMatches(r.Path.Type, r.Path.Value, path)), "path "+path)
	}
	if len(r.ClientCIDRs) > 0 {
		check(cidrVerdict(r.ClientCIDRs, req.ClientIP))
	}
	for _, h := range r.Headers {
		vals := strings.Split(h.Value, "\n")
		check(when(slices.Contains(vals, req.Headers.Get(h.Name))), "header "+h.Name)
	}
	if r.JWTProvider != "" {
		check(claimsVerdict(r, claims))
	}
	if result != fails && len(r.NotSimulated) > 0 {
		return unknown, strings.Join(r.NotSimulated, ", ") + " not simulated"
	}
	if result == fails {
		return fails, ""
	}
	return result, strings.Join(why, ", ")
}

func when(b bool) verdict {
	if b {
		return holds
	}
	return fails
}

// cidrVerdict matches the client's address against CIDRs; without an
// address (--client-ip) gwsim cannot tell.
func cidrVerdict(cidrs []string, clientIP string) (verdict, string) {
	if clientIP == "" {
		return unknown, "the client address, which the request does not give (--client-ip)"
	}
	addr, err := netip.ParseAddr(clientIP)
	if err != nil {
		return unknown, "client address " + clientIP + ", which is not an IP address"
	}
	for _, c := range cidrs {
		if p, err := netip.ParsePrefix(c); err == nil && p.Contains(addr) {
			return holds, "client " + clientIP + " in " + c
		}
	}
	return fails, ""
}

// claimsVerdict matches the JWT's claims and scopes (a claim's Value holds
// its values one per line); without a JWT the rule does not match.
func claimsVerdict(r ir.AuthorizationRule, claims map[string]any) (verdict, string) {
	if claims == nil {
		return fails, ""
	}
	for _, c := range r.Claims {
		got, ok := claimValues(claims, c.Name)
		if !ok || !anyIn(got, strings.Split(c.Value, "\n")) {
			return fails, ""
		}
	}
	if len(r.Scopes) > 0 {
		scopes, _ := claimValues(claims, "scope")
		if len(scopes) == 0 {
			scopes, _ = claimValues(claims, "scp")
		}
		have := strings.Fields(strings.Join(scopes, " "))
		for _, s := range r.Scopes {
			if !slices.Contains(have, s) {
				return fails, ""
			}
		}
	}
	return holds, "JWT claims of provider " + r.JWTProvider
}

func anyIn(got, want []string) bool {
	for _, g := range got {
		if slices.Contains(want, g) {
			return true
		}
	}
	return false
}
