package diag

import (
	"slices"
	"testing"
)

func TestFindingString(t *testing.T) {
	tests := []struct {
		f    Finding
		want string
	}{
		{Finding{Severity: Error, Object: ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "cart"}, Source: Source{File: "a.yaml", Line: 12},
			Field: "spec.rules[0]", Message: "boom"}, "a.yaml:12: error: HTTPRoute shop/cart: spec.rules[0]: boom"},
		{Finding{Severity: Info, Object: ObjectRef{Kind: "GatewayClass", Name: "gc"}, Message: "assumed"}, "info: GatewayClass gc: assumed"},
		{Finding{Severity: Warning, Source: Source{File: "b.yaml", Line: 1}, Message: "no object"}, "b.yaml:1: warning: no object"},
		{Finding{Severity: Error, Source: Source{File: "missing.yaml"}, Message: "cannot read"}, "missing.yaml: error: cannot read"},
	}
	for _, tt := range tests {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestSortIgnoresSourceFirst checks that findings order by object before
// source, so splitting manifests across files does not reorder them.
func TestSortIgnoresSourceFirst(t *testing.T) {
	a := Finding{Object: ObjectRef{Kind: "Gateway", Namespace: "a", Name: "x"}, Source: Source{File: "z.yaml", Line: 9}}
	b := Finding{Object: ObjectRef{Kind: "Gateway", Namespace: "b", Name: "x"}, Source: Source{File: "a.yaml", Line: 1}}
	got := Sort([]Finding{b, a, a})
	if want := []Finding{a, b}; !slices.Equal(got, want) {
		t.Errorf("Sort = %v, want %v", got, want)
	}
}
