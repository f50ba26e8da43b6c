package evaluate

import (
	"net/http"
	"slices"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// TestNotSimulated checks that a request records every resolved or
// assumed extension it goes through (rule filters, the chosen backend's
// filters and cluster), and nothing for an unresolved filter, whose 500 is
// a known answer.
func TestNotSimulated(t *testing.T) {
	ext := func(name, resolution string) ir.Filter {
		return ir.Filter{Type: "ExtensionRef", ExtensionRef: &ir.ExtensionRef{Group: "example.net", Kind: "F", Name: name, Resolution: resolution}}
	}
	r := ir.Route{
		Origin:  ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "r"},
		Filters: []ir.Filter{ext("in", "resolved"), ext("gone", "unresolved"), ext("maybe", "assumed")},
		Action:  ir.Action{Backends: []ir.WeightedBackend{{Cluster: "example.net/B/apps/b:443", Weight: 1, Filters: []ir.Filter{ext("be", "resolved")}}}},
	}
	model := oneRoute(r)
	model.Gateways[0].Clusters = []ir.Cluster{{Name: "example.net/B/apps/b:443", Kind: "example.net/B", Service: "apps/b", Port: 443, Extension: "assumed"}}
	res := Evaluate(model, Request{Host: "example.org", Port: 80, Path: "/"})
	var got []string
	for _, e := range res.NotSimulated {
		got = append(got, e.Use+" "+e.Kind+" "+e.Namespace+"/"+e.Name+" "+e.Resolution)
	}
	want := []string{
		"filter example.net/F apps/in resolved", "filter example.net/F apps/maybe assumed",
		"filter example.net/F apps/be resolved", "backend example.net/B apps/b assumed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("NotSimulated = %q, want %q", got, want)
	}
}

// TestInvalidBackendShareStatus checks that an invalid backend's share gets
// a 500 on an HTTPRoute and the UNAVAILABLE 503 on a GRPCRoute.
func TestInvalidBackendShareStatus(t *testing.T) {
	for kind, want := range map[string]int{"HTTPRoute": http.StatusInternalServerError, "GRPCRoute": http.StatusServiceUnavailable} {
		r := ir.Route{Origin: ir.Origin{Kind: kind}, Action: ir.Action{Backends: []ir.WeightedBackend{{Weight: 1, Invalid: "BackendNotFound"}}}}
		if got := Evaluate(oneRoute(r), Request{Host: "example.org", Port: 80}).Status; got != want {
			t.Errorf("%s: status %d, want %d", kind, got, want)
		}
	}
}
