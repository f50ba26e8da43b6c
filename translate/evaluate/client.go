package evaluate

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// readRequest is what the listener that took req does before routing it:
// without client settings, the path normalised (unless KeepPath); with
// them (ir.ClientSettings), escaped slashes handled first, then the path
// normalised, its slashes merged if the settings say so, header names with
// underscores refused or dropped, and the early request headers applied,
// as Envoy's HTTP connection manager does. ok is false when the listener
// answered the request itself.
func readRequest(res *Result, port *ir.Listener, listener string, req Request) (Request, bool) {
	c := clientSettings(port, listener)
	if c != nil && c.Refused != nil {
		r := c.Refused
		res.addPolicyStep(r.Policy, "refused", fmt.Sprintf("refused for its spec (Accepted False, Invalid: %s); the listener keeps the defaults", strings.TrimSuffix(r.Message, ".")), false)
	}
	if c == nil {
		if !req.KeepPath {
			if p := NormalizePath(req.Path); p != req.Path {
				res.NormalizedPath, req.Path = p, p
			}
		}
		return req, true
	}
	if !req.KeepPath {
		p, ok := clientPath(res, c, req.Path)
		if !ok {
			return req, false
		}
		if p != req.Path {
			res.NormalizedPath, req.Path = p, p
		}
	}
	req.Headers = req.Headers.Clone()
	if req.Headers == nil {
		req.Headers = http.Header{}
	}
	if !clientHeaders(res, c, req.Headers) {
		return req, false
	}
	if m := c.EarlyRequestHeaders; m != nil {
		ModifyHeaders(req.Headers, m)
		res.addClientStep(c, "headers", "early request headers change the request before routing: "+describeModifier(m), false)
	}
	res.LateResponseHeaders = c.LateResponseHeaders
	for _, f := range c.NotSimulated {
		res.addPolicyNotSimulated(f)
	}
	return req, true
}

// clientSettings returns the settings of the port's listener named name.
func clientSettings(port *ir.Listener, name string) *ir.ClientSettings {
	for i := range port.Listeners {
		if port.Listeners[i].Name == name {
			return port.Listeners[i].Client
		}
	}
	return nil
}

// clientPath applies the escaped-slash action, then normalisation, to a
// request target; ok is false when the listener answered (400 or 307).
func clientPath(res *Result, c *ir.ClientSettings, target string) (string, bool) {
	path, query, hasQuery := strings.Cut(target, "?")
	escaped := hasEscapedSlash(path)
	if escaped && c.EscapedSlashes == "RejectRequest" {
		res.addClientStep(c, "path", "the path has an escaped slash (%2F or %5C), which the listener refuses: 400", true)
		res.answer(BadRequest, http.StatusBadRequest, "the listener refuses a path with an escaped slash (escapedSlashesAction RejectRequest)")
		return target, false
	}
	if escaped && (c.EscapedSlashes == "UnescapeAndRedirect" || c.EscapedSlashes == "UnescapeAndForward") {
		path = unescapeSlashes(path)
	}
	path = removeDotSegments(path)
	if c.MergeSlashes {
		path = mergeSlashes(path)
	}
	if hasQuery {
		path += "?" + query
	}
	if escaped && c.EscapedSlashes == "UnescapeAndRedirect" {
		res.addClientStep(c, "path", "the path has an escaped slash (%2F or %5C): the listener redirects to "+path+": 307", true)
		res.answer(PathRedirected, http.StatusTemporaryRedirect, "the listener redirects a path with escaped slashes to its unescaped form (escapedSlashesAction UnescapeAndRedirect)")
		res.Location = path
		return path, false
	}
	if path != target {
		how := "normalised"
		if c.MergeSlashes {
			how += ", slashes merged"
		}
		if escaped && c.EscapedSlashes == "UnescapeAndForward" {
			how += ", escaped slashes unescaped"
		}
		res.addClientStep(c, "path", fmt.Sprintf("the listener routes the path %s (%s): %s", target, how, path), false)
	}
	return path, true
}

func hasEscapedSlash(path string) bool {
	l := strings.ToLower(path)
	return strings.Contains(l, "%2f") || strings.Contains(l, "%5c")
}

// unescapeSlashes decodes %2F and %5C; a backslash is a slash to the
// URL canonicaliser that normalises the path next.
func unescapeSlashes(path string) string {
	r := strings.NewReplacer("%2F", "/", "%2f", "/", "%5C", "/", "%5c", "/")
	return r.Replace(path)
}

// clientHeaders applies the action on header names with underscores;
// false when the listener refused the request.
func clientHeaders(res *Result, c *ir.ClientSettings, h http.Header) bool {
	if c.HeadersWithUnderscores == "Allow" || c.HeadersWithUnderscores == "" {
		return true
	}
	var names []string
	for name := range h {
		if strings.Contains(name, "_") {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return true
	}
	slices.Sort(names)
	if c.HeadersWithUnderscores == "RejectRequest" {
		res.addClientStep(c, "headers", "header "+strings.Join(names, ", ")+" has an underscore in its name, which the listener refuses: 400", true)
		res.answer(BadRequest, http.StatusBadRequest, "the listener refuses a header name with an underscore (withUnderscoresAction RejectRequest)")
		return false
	}
	for _, n := range names {
		h.Del(n)
	}
	res.addClientStep(c, "headers", "the listener drops header "+strings.Join(names, ", ")+" (an underscore in its name) before routing", false)
	return true
}

// addClientStep records a step of the listener's client settings, from
// its ClientTrafficPolicy or the implementation's defaults.
func (r *Result) addClientStep(c *ir.ClientSettings, effect, msg string, decided bool) {
	var p *ir.PolicyRef
	if c.Policy != nil {
		ref := *c.Policy
		p = &ref
	}
	r.PolicySteps = append(r.PolicySteps, PolicyStep{Policy: p, Effect: effect, Message: msg, Decided: decided})
}

// describeModifier renders a header modifier in one line.
func describeModifier(m *ir.HeaderModifier) string {
	var parts []string
	for _, s := range m.Set {
		parts = append(parts, "set "+s.Name+": "+s.Value)
	}
	for _, a := range m.Add {
		parts = append(parts, "add "+a.Name+": "+a.Value)
	}
	for _, r := range m.Remove {
		parts = append(parts, "remove "+r)
	}
	return strings.Join(parts, ", ")
}
