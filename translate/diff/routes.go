package diff

import (
	"cmp"
	"slices"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/shadow"
)

// Change names what happened to one route match at one place.
type Change string

const (
	// Added: the match takes requests at the place only in new.
	Added Change = "Added"
	// Removed: the match takes requests at the place only in old.
	Removed Change = "Removed"
	// Changed: the match is at the place in both, and what it does with a
	// request (filters, backends, weights, redirect, timeouts...) differs.
	Changed Change = "Changed"
	// Shadowed: the match is at the place in both, and in new an earlier
	// match takes every request it matches.
	Shadowed Change = "Shadowed"
	// Unshadowed: the match was dead at the place in old and is live in new.
	Unshadowed Change = "Unshadowed"
)

// RouteChange is one route match that changed at one Gateway, port,
// listener and host. A match whose action changed and that became
// shadowed is listed twice, once per change.
type RouteChange struct {
	Place  shadow.Place `json:"place"`
	Change Change       `json:"change"`
	// Route is the route rule match (new's, unless it was removed).
	Route ir.Origin `json:"route"`
	// Match describes the request it matches: "PathPrefix /cart, GET,
	// header x-canary=true", or "SNI a.example.com" for a TLSRoute.
	Match string `json:"match"`
	// Details say what differs, one per aspect (Changed), or what the
	// match does (Added, Removed).
	Details []Detail `json:"details,omitempty"`
	// ShadowedBy is the match that takes its requests: in new for Shadowed
	// and for an Added match that is dead on arrival, in old for
	// Unshadowed.
	ShadowedBy *ir.Origin `json:"shadowedBy,omitempty"`
}

// Detail is one aspect of a route's action, before and after; one of them
// is empty for an added or removed match.
type Detail struct {
	Aspect string `json:"aspect"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// entryKey identifies a route match within a place across versions: the
// route object and what it matches, not its rule index, so that inserting
// a rule above it does not read as a change. The nth identical match of
// the same route is told apart by n.
type entryKey struct {
	place          shadow.Place
	kind, ns, name string
	match          string
	nth            int
}

// entry is one route match of one side.
type entry struct {
	origin  ir.Origin
	match   string
	aspects []Detail // After holds the value
	dead    *ir.Origin
}

// tableOf flattens an IR's route table: every HTTP and gRPC match of every
// virtual host, and every TLS, TCP and UDP route of every port; then the
// matches of the routes no Gateway of the input places (see
// addElsewhere).
func tableOf(model ir.IR, elsewhere []ir.RouteElsewhere) map[entryKey]entry {
	dead := map[shadowKey]ir.Origin{}
	for _, s := range shadow.Find(model) {
		dead[shadowKey{s.Place, s.Dead}] = s.Winner
	}
	out := map[entryKey]entry{}
	add := func(p shadow.Place, e entry) {
		k := entryKey{place: p, kind: e.origin.Kind, ns: e.origin.Namespace, name: e.origin.Name, match: e.match}
		for {
			if _, taken := out[k]; !taken {
				break
			}
			k.nth++
		}
		out[k] = e
	}
	for _, g := range model.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				p := shadow.Place{Gateway: g.Name, Port: l.Port, Listener: vh.Listener, Host: vh.Hostname}
				for _, r := range vh.Routes {
					e := entry{origin: r.Origin, match: describeMatch(r.Match), aspects: describeAction(r.Filters, r.Action, r.Policies)}
					if w, ok := dead[shadowKey{p, r.Origin}]; ok {
						e.dead = &w
					}
					add(p, e)
				}
			}
			for _, r := range slices.Concat(l.TLSRoutes, l.Forward) {
				p := shadow.Place{Gateway: g.Name, Port: l.Port, Listener: r.Listener, Host: r.SNI}
				add(p, entry{origin: r.Origin, match: describeL4Match(l.Protocol, r), aspects: describeL4Action(r), dead: r.SupersededBy})
			}
		}
	}
	for _, e := range elsewhere {
		for _, p := range elsewherePlaces(e) {
			for _, r := range e.Routes {
				add(p, entry{origin: r.Origin, match: describeMatch(r.Match), aspects: describeAction(r.Filters, r.Action, r.Policies)})
			}
		}
	}
	return out
}

// elsewherePlaces are where a route that no Gateway of the input places
// would serve: each Gateway it names (Port 0: its listeners are not known;
// an empty Gateway for a route that names none) and each of its hostnames
// ("*" when it has none).
func elsewherePlaces(e ir.RouteElsewhere) []shadow.Place {
	parents, hosts := e.Parents, e.Hostnames
	if len(parents) == 0 {
		parents = []string{""}
	}
	if len(hosts) == 0 {
		hosts = []string{"*"}
	}
	out := make([]shadow.Place, 0, len(parents)*len(hosts))
	for _, g := range parents {
		for _, h := range hosts {
			out = append(out, shadow.Place{Gateway: g, Host: h})
		}
	}
	return out
}

type shadowKey struct {
	place  shadow.Place
	origin ir.Origin
}

// compareRoutes lists the route matches that differ between two IRs.
func compareRoutes(old, new translate.Output) []RouteChange {
	before, after := tableOf(old.IR, old.Elsewhere), tableOf(new.IR, new.Elsewhere)
	var out []RouteChange
	for k, a := range after {
		b, ok := before[k]
		if !ok {
			out = append(out, RouteChange{Place: k.place, Change: Added, Route: a.origin, Match: a.match, Details: a.aspects, ShadowedBy: a.dead})
			continue
		}
		if d := changedAspects(b.aspects, a.aspects); len(d) > 0 {
			out = append(out, RouteChange{Place: k.place, Change: Changed, Route: a.origin, Match: a.match, Details: d})
		}
		switch {
		case a.dead != nil && b.dead == nil:
			out = append(out, RouteChange{Place: k.place, Change: Shadowed, Route: a.origin, Match: a.match, ShadowedBy: a.dead})
		case a.dead == nil && b.dead != nil:
			out = append(out, RouteChange{Place: k.place, Change: Unshadowed, Route: a.origin, Match: a.match, ShadowedBy: b.dead})
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			removed := make([]Detail, len(b.aspects))
			for i, d := range b.aspects {
				removed[i] = Detail{Aspect: d.Aspect, Before: d.After}
			}
			out = append(out, RouteChange{Place: k.place, Change: Removed, Route: b.origin, Match: b.match, Details: removed})
		}
	}
	slices.SortFunc(out, compareRouteChanges)
	return out
}

// compareRouteChanges orders changes by place, then route, then match,
// then kind of change.
func compareRouteChanges(a, b RouteChange) int {
	return cmp.Or(a.Place.Compare(b.Place), shadow.CompareOrigins(a.Route, b.Route),
		cmp.Compare(a.Match, b.Match), cmp.Compare(a.Change, b.Change))
}

// changedAspects pairs the aspects of two actions by name and keeps those
// whose value differs; aspects present on one side only are kept too.
func changedAspects(before, after []Detail) []Detail {
	old := map[string]string{}
	for _, d := range before {
		old[d.Aspect] = d.After
	}
	var out []Detail
	seen := map[string]bool{}
	for _, d := range after {
		seen[d.Aspect] = true
		if old[d.Aspect] != d.After {
			out = append(out, Detail{Aspect: d.Aspect, Before: old[d.Aspect], After: d.After})
		}
	}
	for _, d := range before {
		if !seen[d.Aspect] {
			out = append(out, Detail{Aspect: d.Aspect, Before: d.After})
		}
	}
	slices.SortFunc(out, func(x, y Detail) int { return cmp.Compare(aspectRank(x.Aspect), aspectRank(y.Aspect)) })
	return out
}
