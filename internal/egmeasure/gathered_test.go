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
