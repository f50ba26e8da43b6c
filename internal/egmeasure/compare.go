package egmeasure

import (
	"fmt"
	"sort"
	"strconv"
)

// ComparedKinds are the kinds whose status the measure compares: every
// Gateway API kind EG writes status on, EG's Backend and HTTPRouteFilter
// (EG writes no status on HTTPRouteFilter, so gwsim must write none
// either), and EG's policy kinds (their status.ancestors). EnvoyProxy is
// not compared.
var ComparedKinds = []string{
	"GatewayClass", "Gateway", "ListenerSet",
	"HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute",
	"BackendTLSPolicy", "Backend", "HTTPRouteFilter",
	"ClientTrafficPolicy", "BackendTrafficPolicy", "SecurityPolicy", "EnvoyExtensionPolicy", "EnvoyPatchPolicy",
}

// hasAncestors reports whether a kind's status entries are ancestors
// (policies) rather than parents (routes).
func hasAncestors(kind string) bool {
	switch kind {
	case "BackendTLSPolicy", "ClientTrafficPolicy", "BackendTrafficPolicy", "SecurityPolicy", "EnvoyExtensionPolicy", "EnvoyPatchPolicy":
		return true
	}
	return false
}

// Difference is one disagreement between EG's expected status and gwsim's.
type Difference struct {
	Object Key
	// Where is the status entry: "" for the object's own conditions,
	// "listener NAME", "parent REF" or "ancestor REF".
	Where string
	// What is the compared item: a condition type, "attachedRoutes",
	// "supportedKinds", or "entry" when the entry itself is missing on one
	// side.
	What      string
	Want, Got string
}

func (d Difference) String() string {
	w := d.Object.String()
	if d.Where != "" {
		w += " " + d.Where
	}
	return fmt.Sprintf("%s: %s: EG %s, gwsim %s", w, d.What, d.Want, d.Got)
}

// Class is the difference without the names, for grouping: kind, entry
// kind, item, and the two values.
func (d Difference) Class() string {
	where := ""
	if d.Where != "" {
		where = " " + firstWord(d.Where)
	}
	return fmt.Sprintf("%s%s %s: EG %s, gwsim %s", d.Object.Kind, where, d.What, d.Want, d.Got)
}

func firstWord(s string) string {
	for i, r := range s {
		if r == ' ' {
			return s[:i]
		}
	}
	return s
}

// negativePolarity lists the condition types whose healthy value is False:
// their absence says the same as False, and EG leaves them out.
var negativePolarity = map[string]bool{
	"Conflicted": true, "OverlappingTLSConfig": true, "PartiallyInvalid": true,
	"InsecureFrontendValidationMode": true,
}

// Compare compares the expected objects (EG's output) with gwsim's, for
// the kinds in ComparedKinds. want and got are keyed by object.
func Compare(want, got map[Key]Status) []Difference {
	var out []Difference
	keys := make([]Key, 0, len(want)+len(got))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	for _, k := range keys {
		if !compared(k.Kind) {
			continue
		}
		// An object EG did not output is one its test does not see (a
		// Gateway of another class): gwsim must write nothing on it.
		w, inWant := want[k]
		out = append(out, compareStatus(k, w, got[k], inWant)...)
	}
	return out
}

func compared(kind string) bool {
	for _, k := range ComparedKinds {
		if k == kind {
			return true
		}
	}
	return false
}

func compareStatus(k Key, want, got Status, inWant bool) []Difference {
	wc, gc := want.Conditions, got.Conditions
	switch {
	case k.Kind == "Gateway" && inWant:
		wc, gc = gatewayConditions(want), withoutType(gc, "Programmed")
	case k.Kind == "GatewayClass" && inWant:
		wc = classConditions(want.Conditions)
	}
	out := compareConditions(k, "", wc, gc)
	for _, name := range unionKeys(want.Listeners, got.Listeners) {
		where := "listener " + name
		wl, wok := want.Listeners[name]
		gl, gok := got.Listeners[name]
		if !wok || !gok {
			out = append(out, Difference{Object: k, Where: where, What: "entry", Want: presence(wok), Got: presence(gok)})
			continue
		}
		if wl.AttachedRoutes != gl.AttachedRoutes {
			out = append(out, Difference{Object: k, Where: where, What: "attachedRoutes",
				Want: strconv.FormatInt(wl.AttachedRoutes, 10), Got: strconv.FormatInt(gl.AttachedRoutes, 10)})
		}
		if joinKinds(wl.SupportedKinds) != joinKinds(gl.SupportedKinds) {
			out = append(out, Difference{Object: k, Where: where, What: "supportedKinds",
				Want: joinKinds(wl.SupportedKinds), Got: joinKinds(gl.SupportedKinds)})
		}
		out = append(out, compareConditions(k, where, wl.Conditions, gl.Conditions)...)
	}
	entry := "parent"
	if hasAncestors(k.Kind) {
		entry = "ancestor"
	}
	for _, ref := range unionKeys(want.Entries, got.Entries) {
		where := entry + " " + ref
		we, wok := want.Entries[ref]
		ge, gok := got.Entries[ref]
		if !wok || !gok {
			out = append(out, Difference{Object: k, Where: where, What: "entry", Want: presence(wok), Got: presence(gok)})
			continue
		}
		out = append(out, compareConditions(k, where, we, ge)...)
	}
	if a, b := count(want.AttachedListenerSets), count(got.AttachedListenerSets); a != b {
		out = append(out, Difference{Object: k, What: "attachedListenerSets",
			Want: strconv.FormatInt(a, 10), Got: strconv.FormatInt(b, 10)})
	}
	return out
}

// gatewayConditions completes the conditions EG's translator writes on a
// Gateway with the one EG's Kubernetes provider adds after translation
// (internal/provider/kubernetes/status.go, status.UpdateGatewayStatusAccepted):
// unless the translator refused the Gateway, Accepted follows the
// listeners: True/Accepted when all are accepted, True/ListenersNotValid
// when some are, False/ListenersNotValid when none is. The provider also
// sets Programmed from the Envoy Deployment and Service it runs, which a
// translation does not have, so Programmed is compared on neither side.
func gatewayConditions(s Status) []Condition {
	cs := withoutType(s.Conditions, "Programmed")
	if c, ok := find(cs, "Accepted"); ok && c.Status == "False" {
		return cs
	}
	all, some := true, false
	for _, l := range s.Listeners {
		c, ok := find(l.Conditions, "Accepted")
		accepted := ok && c.Status == "True"
		all = all && accepted
		some = some || accepted
	}
	acc := Condition{Type: "Accepted", Status: "True", Reason: "Accepted"}
	switch {
	case all:
	case some:
		acc.Reason = "ListenersNotValid"
	default:
		acc.Status, acc.Reason = "False", "ListenersNotValid"
	}
	return append(withoutType(cs, "Accepted"), acc)
}

// classConditions completes EG's GatewayClass status as EG's GatewayClass
// controller does: its translator writes Accepted only when it has the
// class's EnvoyProxy to judge, and the controller accepts a class of its
// own whose parameters resolve (status.MsgValidGatewayClass).
func classConditions(cs []Condition) []Condition {
	if _, ok := find(cs, "Accepted"); ok {
		return cs
	}
	return append(append([]Condition{}, cs...), Condition{Type: "Accepted", Status: "True", Reason: "Accepted"})
}

func compareConditions(k Key, where string, want, got []Condition) []Difference {
	var out []Difference
	for _, t := range types(want, got) {
		w, wok := find(want, t)
		g, gok := find(got, t)
		switch {
		case wok && gok:
			if w.Status != g.Status || w.Reason != g.Reason {
				out = append(out, Difference{Object: k, Where: where, What: t, Want: w.short(), Got: g.short()})
			}
		case negativePolarity[t] && (wok && w.Status == "False" || gok && g.Status == "False"):
			// Absent and False say the same.
		case wok:
			out = append(out, Difference{Object: k, Where: where, What: t, Want: w.short(), Got: "absent"})
		default:
			out = append(out, Difference{Object: k, Where: where, What: t, Want: "absent", Got: g.short()})
		}
	}
	return out
}

func withoutType(cs []Condition, typ string) []Condition {
	out := make([]Condition, 0, len(cs))
	for _, c := range cs {
		if c.Type != typ {
			out = append(out, c)
		}
	}
	return out
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func presence(ok bool) string {
	if ok {
		return "present"
	}
	return "absent"
}

func count(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
