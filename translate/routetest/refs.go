package routetest

import (
	"fmt"
	"strconv"
	"strings"
)

// parseRouteRef reads "namespace/name", "namespace/name#1" (a rule index)
// or "namespace/name#cart" (a rule name): the routes table names rules
// the same way.
func parseRouteRef(s string) (RouteRef, error) {
	name, rule, hasRule := strings.Cut(s, "#")
	ns, n, ok := splitNamespaced(name)
	if !ok {
		return RouteRef{}, fmt.Errorf("route %q: want namespace/name, namespace/name#rule-index or namespace/name#rule-name", s)
	}
	r := RouteRef{Namespace: ns, Name: n}
	switch {
	case !hasRule:
	case rule == "":
		return RouteRef{}, fmt.Errorf("route %q: no rule after #: want a rule index or name", s)
	default:
		if i, err := strconv.Atoi(rule); err == nil {
			if i < 0 {
				return RouteRef{}, fmt.Errorf("route %q: rule index %d is negative", s, i)
			}
			r.Rule = &i
		} else {
			r.RuleName = rule
		}
	}
	return r, nil
}

// String is the reference as a cases file writes it.
func (r RouteRef) String() string {
	s := r.Namespace + "/" + r.Name
	switch {
	case r.Rule != nil:
		s += "#" + strconv.Itoa(*r.Rule)
	case r.RuleName != "":
		s += "#" + r.RuleName
	}
	return s
}

// parseBackendRef reads "namespace/name" or "namespace/name:port".
func parseBackendRef(s string) (BackendRef, error) {
	name, port, hasPort := strings.Cut(s, ":")
	ns, n, ok := splitNamespaced(name)
	if !ok {
		return BackendRef{}, fmt.Errorf("backend %q: want namespace/name or namespace/name:port", s)
	}
	b := BackendRef{Namespace: ns, Name: n}
	if hasPort {
		p, err := strconv.Atoi(port)
		if err != nil || p < 1 || p > 65535 {
			return BackendRef{}, fmt.Errorf("backend %q: port %q is not a number from 1 to 65535", s, port)
		}
		b.Port = int32(p)
	}
	return b, nil
}

// String is the reference as a cases file writes it.
func (b BackendRef) String() string {
	s := b.Namespace + "/" + b.Name
	if b.Port != 0 {
		s += ":" + strconv.Itoa(int(b.Port))
	}
	return s
}

// splitNamespaced splits "namespace/name"; both are required, so that a
// test never depends on a default namespace.
func splitNamespaced(s string) (string, string, bool) {
	ns, name, ok := strings.Cut(s, "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return "", "", false
	}
	return ns, name, true
}
