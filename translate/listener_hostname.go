package translate

import (
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// CatchAll is the virtual-host name gwsim uses for "any hostname": a listener
// and a route that both leave hostnames empty.
const CatchAll = "*"

// hostnameMatches reports whether host is covered by pattern. A pattern
// "*.example.com" is a suffix match over one or more labels: it covers
// "a.example.com" and "a.b.example.com" but not "example.com". A wildcard
// host is covered by a wildcard pattern whose suffix it extends. Hostnames
// compare case-insensitively (DNS names are).
func hostnameMatches(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(host)
	if pattern == host {
		return true
	}
	suffix, ok := strings.CutPrefix(pattern, "*")
	if !ok {
		return false
	}
	trimmed := strings.TrimPrefix(host, "*")
	return strings.HasSuffix(trimmed, suffix) && len(trimmed) > len(suffix)
}

// intersectHostnames returns the hostnames a route serves on a listener, as
// HTTPRoute's spec.hostnames godoc defines it: a route hostname that the
// listener hostname covers is kept as is; a listener hostname that a route
// wildcard covers is kept instead; an empty side matches everything. The
// result is sorted; it is empty when the two do not intersect, and
// [CatchAll] when neither side names a hostname.
func intersectHostnames(listener *gwv1.Hostname, route []gwv1.Hostname) []string {
	l := hostnameOf(listener)
	if len(route) == 0 {
		if l == "" {
			return []string{CatchAll}
		}
		return []string{l}
	}
	var out []string
	for _, h := range route {
		switch rh := string(h); {
		case l == "" || hostnameMatches(l, rh):
			out = append(out, rh)
		case hostnameMatches(rh, l):
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// compareHostnames orders virtual hosts as the spec orders listener
// hostnames: exact names first, then wildcards with more labels first, then
// the catch-all; ties alphabetically.
func compareHostnames(a, b string) int {
	ra, rb := hostnameRank(a), hostnameRank(b)
	if ra != rb {
		return rb - ra
	}
	return strings.Compare(a, b)
}

// hostnameRank is larger for more specific hostnames: exact names outrank
// every wildcard, wildcards rank by their number of dots.
func hostnameRank(h string) int {
	switch {
	case h == CatchAll || h == "":
		return 0
	case strings.HasPrefix(h, "*"):
		return 1 + strings.Count(h, ".")
	}
	return 1 << 20
}
