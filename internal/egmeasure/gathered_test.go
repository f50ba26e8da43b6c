package egmeasure

import (
	"slices"
	"testing"
)

// TestWithoutUnnamedBackends checks that EG's status of a Backend stays
// when another object names it (a route in its own namespace, an
// EnvoyProxy naming another namespace) and goes when nothing does, or
// only the Backend itself.
func TestWithoutUnnamedBackends(t *testing.T) {
	obj := func(kind, ns, name string, spec map[string]any) map[string]any {
		return map[string]any{"kind": kind, "metadata": map[string]any{"namespace": ns, "name": name}, "spec": spec}
	}
	ref := func(name, ns string) map[string]any {
		r := map[string]any{"group": "gateway.envoyproxy.io", "kind": "Backend", "name": name}
		if ns != "" {
			r["namespace"] = ns
		}
		return r
	}
	in := Input{Objects: []map[string]any{
		obj("HTTPRoute", "apps", "r", map[string]any{"rules": []any{map[string]any{"backendRefs": []any{ref("by-route", "")}}}}),
		obj("EnvoyProxy", "eg", "p", map[string]any{"telemetry": map[string]any{"tracing": map[string]any{"provider": map[string]any{
			"backendRefs": []any{ref("by-proxy", "obs")}}}}}),
		obj("Backend", "apps", "self", map[string]any{"x": ref("self", "")}),
		obj("HTTPRoute", "apps", "service", map[string]any{"rules": []any{map[string]any{"backendRefs": []any{map[string]any{"name": "unnamed"}}}}}),
	}}
	want := map[Key]Status{}
	for _, k := range []Key{{"Backend", "apps", "by-route"}, {"Backend", "obs", "by-proxy"}, {"Backend", "apps", "self"},
		{"Backend", "apps", "unnamed"}, {"Backend", "eg", "by-proxy"}, {"HTTPRoute", "apps", "r"}} {
		want[k] = Status{}
	}
	var got []string
	for k := range WithoutUnnamedBackends(want, in) {
		got = append(got, k.String())
	}
	slices.Sort(got)
	exp := []string{"Backend apps/by-route", "Backend obs/by-proxy", "HTTPRoute apps/r"}
	if !slices.Equal(got, exp) {
		t.Errorf("kept %v, want %v", got, exp)
	}
}

// TestWithProviderRefusals checks that a Gateway of EG's class whose
// parametersRef names no EnvoyProxy of the case is refused on EG's side
// with no listener or route parent status, and that one naming an
// existing EnvoyProxy, or of another class, is left as it is.
func TestWithProviderRefusals(t *testing.T) {
	gateway := func(name, class, proxy string) map[string]any {
		return map[string]any{"kind": "Gateway", "metadata": map[string]any{"namespace": "eg", "name": name},
			"spec": map[string]any{"gatewayClassName": class, "infrastructure": map[string]any{"parametersRef": map[string]any{
				"group": "gateway.envoyproxy.io", "kind": "EnvoyProxy", "name": proxy}}}}
	}
	in := Input{Objects: []map[string]any{
		{"kind": "EnvoyProxy", "metadata": map[string]any{"namespace": "eg", "name": "exists"}},
		gateway("missing", ClassName, "nope"), gateway("found", ClassName, "exists"), gateway("other", "other-class", "nope"),
	}}
	accepted := []Condition{{Type: "Accepted", Status: "True", Reason: "Accepted"}}
	listeners := map[string]Listener{"http": {Conditions: accepted}}
	want := map[Key]Status{
		{"Gateway", "eg", "missing"}: {Conditions: accepted, Listeners: listeners},
		{"Gateway", "eg", "found"}:   {Conditions: accepted, Listeners: listeners},
		{"Gateway", "eg", "other"}:   {Conditions: accepted, Listeners: listeners},
		{"HTTPRoute", "eg", "r"}: {Entries: map[string][]Condition{
			"gateway.networking.k8s.io/Gateway eg/missing section http": accepted,
			"gateway.networking.k8s.io/Gateway eg/found":                accepted,
		}},
	}
	got := WithProviderRefusals(want, in)
	if m := got[Key{"Gateway", "eg", "missing"}]; len(m.Listeners) != 0 || len(m.Conditions) != 1 || m.Conditions[0].short() != "False/InvalidParameters" {
		t.Errorf("refused Gateway: %+v", m)
	}
	for _, n := range []string{"found", "other"} {
		if m := got[Key{"Gateway", "eg", n}]; len(m.Listeners) != 1 || m.Conditions[0].short() != "True/Accepted" {
			t.Errorf("Gateway %s: %+v", n, m)
		}
	}
	if e := got[Key{"HTTPRoute", "eg", "r"}].Entries; len(e) != 1 || e["gateway.networking.k8s.io/Gateway eg/found"] == nil {
		t.Errorf("route parents: %v", e)
	}
}
