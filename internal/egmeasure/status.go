package egmeasure

import (
	"fmt"
	"sort"
	"strings"
)

// Key names an object.
type Key struct{ Kind, Namespace, Name string }

func (k Key) String() string {
	if k.Namespace == "" {
		return k.Kind + " " + k.Name
	}
	return k.Kind + " " + k.Namespace + "/" + k.Name
}

// KeyOf reads an object's key.
func KeyOf(o map[string]any) Key {
	meta, _ := o["metadata"].(map[string]any)
	kind, _ := o["kind"].(string)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return Key{Kind: kind, Namespace: ns, Name: name}
}

// Condition is what the measure compares of a condition. Message is kept
// for the report only.
type Condition struct{ Type, Status, Reason, Message string }

func (c Condition) short() string { return c.Status + "/" + c.Reason }

// Listener is a listener's status entry.
type Listener struct {
	AttachedRoutes int64
	SupportedKinds []string
	Conditions     []Condition
}

// Status is the part of an object's status the measure compares. Entries
// holds a route's parents or a policy's ancestors, keyed by their
// reference with its defaults filled in.
type Status struct {
	Conditions []Condition
	Listeners  map[string]Listener
	Entries    map[string][]Condition
	// AttachedListenerSets is a Gateway's count, nil when unset.
	AttachedListenerSets *int64
}

// StatusOf reads an object's status.
func StatusOf(o map[string]any) Status {
	k := KeyOf(o)
	st, _ := o["status"].(map[string]any)
	s := Status{Conditions: conditions(st["conditions"])}
	if ls, ok := st["listeners"].([]any); ok {
		s.Listeners = map[string]Listener{}
		for _, l := range ls {
			lm, _ := l.(map[string]any)
			name, _ := lm["name"].(string)
			s.Listeners[name] = Listener{
				AttachedRoutes: integer(lm["attachedRoutes"]),
				SupportedKinds: kinds(lm["supportedKinds"]),
				Conditions:     conditions(lm["conditions"]),
			}
		}
	}
	if n, ok := st["attachedListenerSets"]; ok {
		v := integer(n)
		s.AttachedListenerSets = &v
	}
	for _, field := range []string{"parents", "ancestors"} {
		list, ok := st[field].([]any)
		if !ok {
			continue
		}
		if s.Entries == nil {
			s.Entries = map[string][]Condition{}
		}
		refField := "parentRef"
		if field == "ancestors" {
			refField = "ancestorRef"
		}
		for _, e := range list {
			em, _ := e.(map[string]any)
			ref, _ := em[refField].(map[string]any)
			s.Entries[refKey(ref, k.Namespace)] = conditions(em["conditions"])
		}
	}
	return s
}

// refKey writes a parentRef with the API's defaults: group
// gateway.networking.k8s.io, kind Gateway, the referrer's namespace.
func refKey(ref map[string]any, ns string) string {
	get := func(f, def string) string {
		if v, ok := ref[f]; ok && v != nil && fmt.Sprint(v) != "" {
			return fmt.Sprint(v)
		}
		return def
	}
	k := get("group", "gateway.networking.k8s.io") + "/" + get("kind", "Gateway") + " " +
		get("namespace", ns) + "/" + get("name", "")
	if s := get("sectionName", ""); s != "" {
		k += " section " + s
	}
	if p := get("port", ""); p != "" {
		k += " port " + p
	}
	return k
}

func conditions(v any) []Condition {
	list, _ := v.([]any)
	out := make([]Condition, 0, len(list))
	for _, c := range list {
		cm, _ := c.(map[string]any)
		str := func(f string) string { s, _ := cm[f].(string); return s }
		out = append(out, Condition{Type: str("type"), Status: str("status"), Reason: str("reason"), Message: str("message")})
	}
	return out
}

func kinds(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, k := range list {
		km, _ := k.(map[string]any)
		g, _ := km["group"].(string)
		if g == "" {
			g = "gateway.networking.k8s.io"
		}
		kind, _ := km["kind"].(string)
		out = append(out, g+"/"+kind)
	}
	sort.Strings(out)
	return out
}

func integer(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case int64:
		return n
	case int:
		return int64(n)
	}
	return 0
}

func find(cs []Condition, typ string) (Condition, bool) {
	for _, c := range cs {
		if c.Type == typ {
			return c, true
		}
	}
	return Condition{}, false
}

func types(a, b []Condition) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range append(append([]Condition{}, a...), b...) {
		if !seen[c.Type] {
			seen[c.Type] = true
			out = append(out, c.Type)
		}
	}
	sort.Strings(out)
	return out
}

func joinKinds(k []string) string { return strings.Join(k, ",") }
