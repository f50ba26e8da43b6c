package evaluate

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// checkCredential applies one authentication: a request without the
// credential gets the check's status (unless it is optional); one with it
// goes on, gwsim having no keys, passwords or issuers to verify it
// against. A JWT that is not a JWT at all is refused (401), as Envoy's
// JWT filter refuses it before any signature check. token is the JWT the
// request carries, for authorization rules on its claims.
func checkCredential(res *Result, c ir.CredentialCheck, req Request) (stop bool, token string) {
	src, value, ok := findCredential(c.Sources, req)
	if !ok {
		if c.Optional || c.FailOpen {
			res.addPolicyStep(c.Policy, c.Type, fmt.Sprintf("%s: the request carries no credential (%s), which is optional", c.Type, describeSources(c.Sources)), false)
			return false, ""
		}
		reason := fmt.Sprintf("%s of %s demands a credential (%s) and the request carries none", c.Type, policyName(c.Policy), describeSources(c.Sources))
		res.addPolicyStep(c.Policy, c.Type, fmt.Sprintf("%s: no credential in the request (%s): %s", c.Type, describeSources(c.Sources), statusWords(c.Status)), true)
		res.answer(CredentialsRequired, c.Status, reason)
		res.Location = c.Location
		return true, ""
	}
	if c.Type == "JWT" {
		if _, err := jwtClaims(value); err != nil && c.FailOpen {
			res.addPolicyStep(c.Policy, c.Type, fmt.Sprintf("JWT: the token in %s is not a JWT (%v); failOpen lets the request through", describeSources([]string{src}), err), false)
			return false, ""
		} else if err != nil {
			res.addPolicyStep(c.Policy, c.Type, fmt.Sprintf("JWT: the token in %s is not a JWT (%v): 401", describeSources([]string{src}), err), true)
			res.answer(CredentialsRequired, http.StatusUnauthorized, fmt.Sprintf("JWT of %s refuses the token in %s: %v", policyName(c.Policy), describeSources([]string{src}), err))
			return true, ""
		}
		token = value
	}
	res.addPolicyStep(c.Policy, c.Type, fmt.Sprintf("%s: the request carries a credential (%s); gwsim cannot verify it and takes it as valid", c.Type, describeSources([]string{src})), false)
	return false, token
}

// statusWords names a credential check's answer.
func statusWords(status int) string {
	if status == http.StatusFound {
		return "302 to the identity provider's login"
	}
	return fmt.Sprintf("%d", status)
}

// findCredential returns the first source that req carries, with its
// value (after the source's prefix).
func findCredential(sources []string, req Request) (src, value string, ok bool) {
	for _, s := range sources {
		if v, found := credentialValue(s, req); found {
			return s, v, true
		}
	}
	return "", "", false
}

// describeSources renders credential sources for a reader:
// "header Authorization: Basic …", "query access_token", "cookie AccessToken-*".
func describeSources(sources []string) string {
	out := make([]string, len(sources))
	for i, s := range sources {
		kind, rest, _ := strings.Cut(s, " ")
		name, prefix, hasPrefix := strings.Cut(rest, " prefix ")
		switch {
		case kind == "header" && hasPrefix:
			out[i] = "header " + name + ": " + prefix + " …"
		default:
			out[i] = kind + " " + name
		}
	}
	return strings.Join(out, ", ")
}

// credentialValue reads one source: "header NAME", "header NAME prefix P",
// "query NAME", "cookie NAME" (a NAME ending in "*" matches by prefix).
func credentialValue(source string, req Request) (string, bool) {
	kind, rest, _ := strings.Cut(source, " ")
	name, prefix, _ := strings.Cut(rest, " prefix ")
	switch kind {
	case "header":
		for _, v := range req.Headers.Values(name) {
			if prefix == "" {
				return v, v != ""
			}
			if len(v) > len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
				if rest := strings.TrimSpace(v[len(prefix):]); rest != "" {
					return rest, true
				}
			}
		}
	case "query":
		_, q := splitTarget(req.Path)
		if v := q.Get(name); v != "" {
			return v, true
		}
	case "cookie":
		for _, c := range (&http.Request{Header: http.Header{"Cookie": req.Headers.Values("Cookie")}}).Cookies() {
			if p, wild := strings.CutSuffix(name, "*"); wild && strings.HasPrefix(c.Name, p) || c.Name == name {
				return c.Value, c.Value != ""
			}
		}
	}
	return "", false
}

// jwtClaims decodes the claims of a compact JWT without verifying it.
func jwtClaims(token string) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%d dot-separated parts, not 3", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, fmt.Errorf("its payload is not base64url")
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, fmt.Errorf("its payload is not a JSON object")
	}
	return claims, nil
}

// claimValues returns the values of a claim named by a dot path
// ("org.department"): a string, or the strings of an array.
func claimValues(claims map[string]any, path string) ([]string, bool) {
	var v any = claims
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	switch t := v.(type) {
	case string:
		return []string{t}, true
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	return []string{fmt.Sprint(v)}, true
}
