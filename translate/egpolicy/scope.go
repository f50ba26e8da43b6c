package egpolicy

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
)

// Level is how specific an attachment is; a higher Level wins over a
// lower one where both apply.
type Level int

// The levels, least specific first.
const (
	LevelGateway Level = iota
	LevelListener
	LevelListenerSet
	LevelListenerSetListener
	LevelRoute
	LevelRouteRule
)

var levelNames = [...]string{"Gateway", "Gateway listener", "ListenerSet", "ListenerSet listener", "route", "route rule"}

func (l Level) String() string { return levelNames[l] }

// scope is one place a policy can attach: a level, the object, and a
// section (listener or rule name).
type scope struct {
	level   Level
	kind    string // a route's kind
	key     types.NamespacedName
	section string
}

func (s scope) whole() scope {
	switch s.level {
	case LevelListener:
		return scope{level: LevelGateway, key: s.key}
	case LevelListenerSetListener:
		return scope{level: LevelListenerSet, key: s.key}
	case LevelRouteRule:
		return scope{level: LevelRoute, kind: s.kind, key: s.key}
	}
	return s
}

func (s scope) String() string {
	if s.section != "" {
		return s.key.String() + "/" + s.section
	}
	return s.key.String()
}

// scopeGraph records which scopes' policies displace a parent scope's
// policy (EG's policyScopeGraph): a listener's under its Gateway, a
// route's under the Gateway or listener it attaches to, and so on.
type scopeGraph struct {
	children map[scope]map[scope]bool
	// contains holds structural containment (a Gateway holds its
	// listeners' and ListenerSets' scopes), for descendant walks.
	contains map[scope]map[scope]bool
}

func newScopeGraph() *scopeGraph {
	return &scopeGraph{children: map[scope]map[scope]bool{}, contains: map[scope]map[scope]bool{}}
}

func addTo(m map[scope]map[scope]bool, parent, child scope) {
	if m[parent] == nil {
		m[parent] = map[scope]bool{}
	}
	m[parent][child] = true
}

func (g *scopeGraph) add(parent, child scope) {
	addTo(g.children, parent, child)
	if parent.section != "" {
		addTo(g.contains, parent.whole(), parent)
	}
}

func (g *scopeGraph) registerListenerSet(ls, gw types.NamespacedName) {
	addTo(g.contains, scope{level: LevelGateway, key: gw}, scope{level: LevelListenerSet, key: ls})
}

// overriding returns the scopes that displace parent: its direct
// children, the children of what it contains (one level further for a
// ListenerSet in a Gateway), and for a listener the routes attached to
// its whole Gateway or ListenerSet.
func (g *scopeGraph) overriding(parent scope) map[scope]bool {
	out := map[scope]bool{}
	for c := range g.children[parent] {
		out[c] = true
	}
	switch parent.level {
	case LevelGateway, LevelListenerSet, LevelRoute:
		for d := range g.contains[parent] {
			for c := range g.children[d] {
				out[c] = true
			}
			if d.level == LevelListenerSet {
				for sub := range g.contains[d] {
					for c := range g.children[sub] {
						out[c] = true
					}
				}
			}
		}
	case LevelListener, LevelListenerSetListener:
		for c := range g.children[parent.whole()] {
			if c.level == LevelRoute {
				out[c] = true
			}
		}
	}
	return out
}

// describeScopes words scopes as EG's Overridden messages do, grouped by
// level: "these gateway listeners: [ns/gw/l] and these routes: [ns/r]".
func describeScopes(scopes map[scope]bool) string {
	byLevel := map[Level][]string{}
	for s := range scopes {
		byLevel[s.level] = append(byLevel[s.level], s.String())
	}
	labels := []struct {
		level Level
		label string
	}{
		{LevelListener, "these gateway listeners"},
		{LevelListenerSet, "these listenersets"},
		{LevelListenerSetListener, "these listenerset listeners"},
		{LevelRoute, "these routes"},
		{LevelRouteRule, "these route rules"},
	}
	var parts []string
	for _, l := range labels {
		if names := byLevel[l.level]; len(names) > 0 {
			slices.Sort(names)
			parts = append(parts, fmt.Sprintf("%s: %v", l.label, names))
		}
	}
	return strings.Join(parts, " and ")
}
