// Package shadow finds route matches that can never receive traffic: in a
// virtual host, routes are tried in precedence order and the first match
// takes the request, so a match that an earlier match covers (every request
// it matches, the earlier one matches too) is dead. It reads the resolved
// route table, the IR, whose virtual hosts are already sorted by the spec's
// precedence rules, so the order that decided is the data plane's own.
//
// Covering is decided only where it is decidable exactly: the same path
// (Exact, PathPrefix with or without its trailing slash, or the same
// RegularExpression), a PathPrefix that covers a longer one, a
// RegularExpression that is a literal followed by ".*" covering a PathPrefix
// under that literal, and a RegularExpression that matches an Exact path.
// Method, header and query conditions cover when the earlier match's are a
// subset of the later one's. Anything else (two different regular
// expressions) is assumed live: no false reds.
//
// The package is pure: an IR in, a sorted list out.
package shadow

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// Relation names why the winner takes every request of the dead match.
type Relation string

const (
	// Identical: both matches have the same path, method, headers and query
	// parameters; precedence then falls to the route's age and name, or,
	// within a route, to rule and match order.
	Identical Relation = "Identical"
	// Broader: the winner has the same path and a subset of the dead
	// match's method, header and query conditions.
	Broader Relation = "Broader"
	// PrefixCovers: the winner's PathPrefix covers the dead match's path.
	PrefixCovers Relation = "PrefixCovers"
	// RegexCovers: the winner's RegularExpression matches every path the
	// dead match's PathPrefix or Exact path matches.
	RegexCovers Relation = "RegexCovers"
)

// Place is one virtual host of one Gateway port: where precedence applies.
type Place struct {
	Gateway  string `json:"gateway"`
	Port     int32  `json:"port"`
	Listener string `json:"listener"`
	Host     string `json:"host"`
}

// Compare orders places by Gateway, port, host and listener.
func (p Place) Compare(o Place) int {
	return cmp.Or(cmp.Compare(p.Gateway, o.Gateway), cmp.Compare(p.Port, o.Port),
		cmp.Compare(p.Host, o.Host), cmp.Compare(p.Listener, o.Listener))
}

// Shadowed is one dead match at one place, and the match that takes its
// requests there.
type Shadowed struct {
	Place    Place     `json:"place"`
	Dead     ir.Origin `json:"dead"`
	Winner   ir.Origin `json:"winner"`
	Relation Relation  `json:"relation"`
}

// Find lists every dead match of model's virtual hosts, sorted by place,
// then by the dead match's origin. Each dead match names the first earlier
// match that covers it.
func Find(model ir.IR) []Shadowed {
	var out []Shadowed
	for _, g := range model.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				p := Place{Gateway: g.Name, Port: l.Port, Listener: vh.Listener, Host: vh.Hostname}
				out = append(out, findInHost(p, vh.Routes)...)
			}
		}
	}
	slices.SortFunc(out, func(a, b Shadowed) int {
		return cmp.Or(a.Place.Compare(b.Place), CompareOrigins(a.Dead, b.Dead))
	})
	return out
}

// OriginString renders `HTTPRoute ns/name rules[i].matches[j]`, the way
// findings and diffs name one route match; TLS, TCP and UDP routes have
// one rule and no matches, and read `TCPRoute ns/name`.
func OriginString(o ir.Origin) string {
	switch o.Kind {
	case "TLSRoute", "TCPRoute", "UDPRoute":
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s/%s rules[%d].matches[%d]", o.Kind, o.Namespace, o.Name, o.Rule, o.Match)
}

// CompareOrigins orders origins by kind, namespace, name, rule and match.
func CompareOrigins(a, b ir.Origin) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name),
		cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Match, b.Match))
}

// pathKey buckets matches by path type and normalised path, so that each
// route is compared with the few earlier ones that can cover it rather
// than with every earlier route.
type pathKey struct {
	typ, path string
}

func keyOfMatch(m ir.Match) pathKey {
	if m.PathType == pathPrefix {
		return pathKey{pathPrefix, trimPrefix(m.Path)}
	}
	return pathKey{m.PathType, m.Path}
}

const (
	pathExact  = "Exact"
	pathPrefix = "PathPrefix"
	pathRegex  = "RegularExpression"
)

// trimPrefix drops a PathPrefix's trailing slash, which the spec ignores:
// "/foo/" and "/foo" match the same paths, and "/" becomes "".
func trimPrefix(p string) string { return strings.TrimSuffix(p, "/") }

// findInHost walks one virtual host's routes in precedence order and
// reports each that an earlier one covers. Live routes are indexed by path
// (regular expressions also kept apart), so the candidates for a route are
// the live routes with the same path, the PathPrefixes above its path and
// the regular expressions, not every earlier route. A dead route is never a
// winner: whatever covers it covers what it would.
func findInHost(p Place, routes []ir.Route) []Shadowed {
	var out []Shadowed
	byPath := make(map[pathKey][]int, len(routes))
	var regexes []int
	for i, r := range routes {
		if w, rel, ok := firstCover(r.Match, routes, byPath, regexes); ok {
			out = append(out, Shadowed{Place: p, Dead: r.Origin, Winner: routes[w].Origin, Relation: rel})
			continue
		}
		k := keyOfMatch(r.Match)
		byPath[k] = append(byPath[k], i)
		if r.Match.PathType == pathRegex {
			regexes = append(regexes, i)
		}
	}
	return out
}

// firstCover returns the index of the earliest live route that covers m.
// Each candidate list is in precedence order.
func firstCover(m ir.Match, routes []ir.Route, byPath map[pathKey][]int, regexes []int) (int, Relation, bool) {
	best, bestRel := -1, Relation("")
	consider := func(cands []int, rel func(ir.Match) (Relation, bool)) {
		for _, c := range cands {
			if best >= 0 && c > best {
				return
			}
			if r, ok := rel(routes[c].Match); ok {
				best, bestRel = c, r
				return
			}
		}
	}
	consider(byPath[keyOfMatch(m)], func(w ir.Match) (Relation, bool) {
		switch {
		case !conditionsCover(w, m):
			return "", false
		case conditionsCover(m, w):
			return Identical, true
		}
		return Broader, true
	})
	if m.PathType != pathPrefix && m.PathType != pathExact {
		return best, bestRel, best >= 0
	}
	prefixCovers := func(w ir.Match) (Relation, bool) { return PrefixCovers, conditionsCover(w, m) }
	forEachPrefixAncestor(m, func(anc string) {
		consider(byPath[pathKey{pathPrefix, anc}], prefixCovers)
	})
	consider(regexes, func(w ir.Match) (Relation, bool) {
		return RegexCovers, conditionsCover(w, m) && regexCoversPath(w.Path, m)
	})
	return best, bestRel, best >= 0
}

// forEachPrefixAncestor calls f, longest first, with each normalised
// PathPrefix, other than m's own key, that matches every path m matches:
// for the prefix "/a/b" they are "/a" and "" (the prefix "/"); for the
// Exact path "/a/b" also "/a/b".
func forEachPrefixAncestor(m ir.Match, f func(string)) {
	p := trimPrefix(m.Path)
	if m.PathType == pathExact {
		f(p)
	}
	for i := strings.LastIndexByte(p, '/'); i >= 0; i = strings.LastIndexByte(p[:i], '/') {
		f(p[:i])
		if i == 0 {
			break
		}
	}
}

// conditionsCover reports whether every method, header and query condition
// of w is also one of m's, so that w matches whatever m matches as far as
// they go. Header names compare case-insensitively, query names exactly.
func conditionsCover(w, m ir.Match) bool {
	if w.Method != "" && w.Method != m.Method {
		return false
	}
	return valuesSubset(w.Headers, m.Headers, strings.EqualFold) && valuesSubset(w.QueryParams, m.QueryParams, func(a, b string) bool { return a == b })
}

func valuesSubset(w, m []ir.ValueMatch, sameName func(a, b string) bool) bool {
	for _, a := range w {
		found := false
		for _, b := range m {
			if sameName(a.Name, b.Name) && a.Type == b.Type && a.Value == b.Value {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
