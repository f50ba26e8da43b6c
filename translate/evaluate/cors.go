package evaluate

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// isPreflight reports whether req is a CORS preflight: an OPTIONS request
// with Origin and Access-Control-Request-Method (the Fetch standard).
func isPreflight(req Request) bool {
	return req.Method == http.MethodOptions && req.Headers.Get("Origin") != "" &&
		req.Headers.Get("Access-Control-Request-Method") != ""
}

// preflightHeaders is the gateway's answer to a preflight from an allowed
// origin, nil for any other origin (the spec's "204 without the CORS
// headers"). Wildcards are answered by echoing the request, which the spec
// requires with credentials and allows without: the origin, the requested
// method and the requested headers. Expose-Headers "*" is only sent
// without credentials, as the spec says. Max-Age is sent unless negative
// (a policy's CORS without maxAge).
func preflightHeaders(c *ir.CORS, req Request) http.Header {
	h := actualHeaders(c, req)
	if h == nil {
		return nil
	}
	if len(c.AllowMethods) == 1 && c.AllowMethods[0] == "*" {
		h.Set("Access-Control-Allow-Methods", req.Headers.Get("Access-Control-Request-Method"))
	} else if len(c.AllowMethods) > 0 {
		h.Set("Access-Control-Allow-Methods", strings.Join(c.AllowMethods, ", "))
	}
	if len(c.AllowHeaders) == 1 && c.AllowHeaders[0] == "*" {
		if asked := req.Headers.Get("Access-Control-Request-Headers"); asked != "" {
			h.Set("Access-Control-Allow-Headers", asked)
		}
	} else if len(c.AllowHeaders) > 0 {
		h.Set("Access-Control-Allow-Headers", strings.Join(c.AllowHeaders, ", "))
	}
	if c.MaxAge >= 0 {
		h.Set("Access-Control-Max-Age", strconv.Itoa(int(c.MaxAge)))
	}
	return h
}

// actualHeaders are the CORS headers on the response to a request from an
// allowed origin (nil without an Origin or for another origin): the origin
// echoed, credentials when allowed, and the exposed headers.
func actualHeaders(c *ir.CORS, req Request) http.Header {
	origin := req.Headers.Get("Origin")
	if origin == "" || !originAllowed(c.AllowOrigins, origin) {
		return nil
	}
	h := http.Header{}
	h.Set("Access-Control-Allow-Origin", origin)
	if c.AllowCredentials {
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	switch {
	case len(c.ExposeHeaders) == 1 && c.ExposeHeaders[0] == "*":
		if !c.AllowCredentials {
			h.Set("Access-Control-Expose-Headers", "*")
		}
	case len(c.ExposeHeaders) > 0:
		h.Set("Access-Control-Expose-Headers", strings.Join(c.ExposeHeaders, ", "))
	}
	return h
}

// originAllowed applies the spec's origin matching: "*" allows every
// origin; otherwise scheme and port must be equal (80 for http and 443 for
// https when left out) and the host must match, a "*" in the pattern's
// host standing for any labels to its left ("https://*.bar.com" allows
// https://a.b.bar.com but not https://bar.com).
func originAllowed(patterns []string, origin string) bool {
	os, oh, op := splitOrigin(origin)
	for _, p := range patterns {
		if p == "*" {
			return true
		}
		ps, ph, pp := splitOrigin(p)
		if strings.EqualFold(ps, os) && pp == op && hostMatches(ph, oh) {
			return true
		}
	}
	return false
}

// splitOrigin splits "scheme://host[:port]" and defaults the port by scheme.
func splitOrigin(o string) (scheme, host, port string) {
	scheme, host, _ = strings.Cut(o, "://")
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host, port = host[:i], host[i+1:]
	}
	if port == "" {
		port = strconv.Itoa(int(wellKnownPort(scheme)))
	}
	return strings.ToLower(scheme), host, port
}
