package evaluate

import (
	"net/netip"
	"regexp"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// rewritePathRegex replaces every match of pattern in path by
// substitution, as Envoy's regex_rewrite does: RE2 syntax, and \N in the
// substitution for the Nth group. A pattern that does not compile (the
// translator reports it) leaves the path unchanged.
func rewritePathRegex(pattern, substitution, path string) string {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return path
	}
	return re.ReplaceAllString(path, envoySubstitution(substitution))
}

// envoySubstitution turns Envoy's \N group references into Go's ${N} and
// escapes the $ signs Go would read as references.
func envoySubstitution(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '$':
			b.WriteString("$$")
		case s[i] == '\\' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			b.WriteString("${" + s[i+1:i+2] + "}")
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// fromBackend reports whether a rule or backend filter asks for the host
// of the endpoint the request goes to.
func fromBackend(lists ...[]ir.Filter) bool {
	for _, fs := range lists {
		for _, f := range fs {
			if f.URLRewrite != nil && f.URLRewrite.HostnameFromBackend {
				return true
			}
		}
	}
	return false
}

// backendHost is the host a request forwarded to c carries after an auto
// host rewrite: the hostname of c's first endpoint (endpoints are sorted;
// which one a request reaches is the load balancer's choice, and the
// endpoints of one Backend share a hostname in practice). An IP endpoint,
// or a cluster without endpoints, keeps host.
func backendHost(c *ir.Cluster, host string) string {
	if c == nil || len(c.Endpoints) == 0 {
		return host
	}
	addr := c.Endpoints[0].Address
	if _, err := netip.ParseAddr(addr); err == nil || strings.HasPrefix(addr, "unix:") {
		return host
	}
	return addr
}
