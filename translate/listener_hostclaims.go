package translate

import "strings"

// listenerClaims are the hostnames the HTTPRoutes and the GRPCRoutes
// accepted so far on one listener serve there (see resolveKindConflicts).
type listenerClaims struct {
	http, grpc claimIndex
}

// add records c under its route's kind.
func (lc *listenerClaims) add(c hostClaim) {
	if c.route.kind == "GRPCRoute" {
		lc.grpc.add(c)
		return
	}
	lc.http.add(c)
}

// claimIndex holds claims in the order they were made and finds the first
// one whose hostnames intersect a set of hostnames without scanning them
// all, so that a listener with thousands of routes of both kinds costs
// linear time, not quadratic. Every index maps a key to the position of the
// earliest claim filed under it; hostnamesIntersect stays the definition
// and the index only narrows which claims it is asked about. Hostnames are
// compared lowercased, as hostnameMatches does.
type claimIndex struct {
	claims []hostClaim
	// exact files every hostname as written: equal names intersect.
	exact map[string]int
	// wildcards files "*.a.b" under ".a.b": it covers any name whose
	// wildcard-trimmed form ends in ".a.b" and is longer.
	wildcards map[string]int
	// suffixes files every name under each proper suffix of its
	// wildcard-trimmed form that starts at a dot ("x.a.b" under ".a.b" and
	// ".b"): a wildcard ".a.b" covers exactly the names filed there. Only
	// a wildcard asks it, so it is built (from every claim so far) when the
	// first wildcard asks, and kept up to date from then on; nil before.
	suffixes map[string]int
	// catchAll is the earliest claim of "*", which intersects everything.
	catchAll int
	// named is the earliest claim that serves any name at all: "*" on the
	// other side intersects it.
	named int
	// odd holds claims with a wildcard not of the form "*.suffix", which
	// the maps cannot file; they are checked one by one.
	odd []int
}

func (ix *claimIndex) add(c hostClaim) {
	ix.claims = append(ix.claims, c)
	ix.file(len(ix.claims) - 1)
}

// addAll adds the claims cs, in order, to an empty index, which keeps the
// slice.
func (ix *claimIndex) addAll(cs []hostClaim) {
	ix.claims = cs
	for pos := range cs {
		ix.file(pos)
	}
}

// file files claim pos of ix.claims.
func (ix *claimIndex) file(pos int) {
	if ix.exact == nil {
		ix.exact, ix.wildcards = map[string]int{}, map[string]int{}
		ix.catchAll, ix.named = -1, -1
	}
	c := ix.claims[pos]
	ix.fileSuffixes(c, pos)
	if ix.named < 0 && len(c.hostnames) > 0 {
		ix.named = pos
	}
	oddAdded := false
	for _, h := range c.hostnames {
		h = strings.ToLower(h)
		if h == CatchAll {
			if ix.catchAll < 0 {
				ix.catchAll = pos
			}
			continue
		}
		fileFirst(ix.exact, h, pos)
		if rest, ok := strings.CutPrefix(h, "*"); ok {
			if !strings.HasPrefix(rest, ".") {
				if !oddAdded {
					ix.odd = append(ix.odd, pos)
					oddAdded = true
				}
				continue
			}
			fileFirst(ix.wildcards, rest, pos)
		}
	}
}

// fileSuffixes files the names of claim c, at pos, in suffixes once that
// is built.
func (ix *claimIndex) fileSuffixes(c hostClaim, pos int) {
	if ix.suffixes == nil {
		return
	}
	for _, h := range c.hostnames {
		h = strings.ToLower(h)
		if h == CatchAll {
			continue
		}
		if rest, ok := strings.CutPrefix(h, "*"); ok && !strings.HasPrefix(rest, ".") {
			continue // an odd wildcard: see odd
		}
		name := strings.TrimPrefix(h, "*")
		for i := 1; i < len(name); i++ {
			if name[i] == '.' {
				fileFirst(ix.suffixes, name[i:], pos)
			}
		}
	}
}

// buildSuffixes builds suffixes from every claim so far, in order, as add
// would have filed them.
func (ix *claimIndex) buildSuffixes() {
	if ix.suffixes != nil {
		return
	}
	ix.suffixes = map[string]int{}
	for pos, c := range ix.claims {
		ix.fileSuffixes(c, pos)
	}
}

// firstIntersecting returns the earliest claim whose hostnames intersect
// hosts, as hostnamesIntersect decides.
func (ix *claimIndex) firstIntersecting(hosts []string) (hostClaim, bool) {
	if len(ix.claims) == 0 || len(hosts) == 0 {
		return hostClaim{}, false
	}
	best := len(ix.claims)
	consider := func(pos int, ok bool) {
		if ok && pos < best {
			best = pos
		}
	}
	consider(ix.catchAll, ix.catchAll >= 0)
	for _, h := range hosts {
		h = strings.ToLower(h)
		if h == CatchAll {
			consider(ix.named, ix.named >= 0)
			continue
		}
		pos, ok := ix.exact[h]
		consider(pos, ok)
		// Claimed wildcards that cover h.
		if len(ix.wildcards) > 0 {
			name := strings.TrimPrefix(h, "*")
			for i := 1; i < len(name); i++ {
				if name[i] == '.' {
					pos, ok := ix.wildcards[name[i:]]
					consider(pos, ok)
				}
			}
		}
		// Claimed names that h, a wildcard, covers.
		if rest, ok := strings.CutPrefix(h, "*"); ok {
			if !strings.HasPrefix(rest, ".") {
				// An odd wildcard: ask every claim.
				for pos, c := range ix.claims {
					if _, ok := hostnamesIntersect(c.hostnames, []string{h}); ok {
						consider(pos, true)
						break
					}
				}
				continue
			}
			ix.buildSuffixes()
			pos, ok := ix.suffixes[rest]
			consider(pos, ok)
		}
	}
	for _, pos := range ix.odd {
		if pos >= best {
			break
		}
		if _, ok := hostnamesIntersect(ix.claims[pos].hostnames, hosts); ok {
			consider(pos, true)
		}
	}
	if best == len(ix.claims) {
		return hostClaim{}, false
	}
	return ix.claims[best], true
}

// fileFirst records pos under key unless an earlier claim holds it.
func fileFirst(m map[string]int, key string, pos int) {
	if _, ok := m[key]; !ok {
		m[key] = pos
	}
}
