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
		// A file name a CI runner would read as a workflow command.
		{Finding{Severity: Error, Source: Source{File: "::error::x.yaml", Line: 2}, Message: "m"}, "./::error::x.yaml:2: error: m"},
		{Finding{Severity: Error, Source: Source{File: " ##[error]x.yaml", Line: 2}, Message: "m"}, "./ ##[error]x.yaml:2: error: m"},
	}
	for _, tt := range tests {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestSort: findings order by file and line first, then object, with
// numbers in file names and messages compared as numbers.
func TestSort(t *testing.T) {
	gw := ObjectRef{Kind: "Gateway", Namespace: "a", Name: "x"}
	fs := []Finding{
		{Source: Source{File: "a.yaml", Line: 1}, Message: "yaml: line 13: key already set"},
		{Source: Source{File: "a.yaml", Line: 1}, Message: "yaml: line 7: key already set"},
		{Source: Source{File: "part-10.yaml", Line: 1}, Object: gw},
		{Source: Source{File: "part-2.yaml", Line: 9}, Object: gw},
		{Source: Source{File: "part-2.yaml", Line: 10}, Object: gw},
		{Message: "assumed"},
		{Source: Source{File: "a.yaml", Line: 1}, Message: "yaml: line 7: key already set"},
	}
	want := []Finding{fs[5], fs[1], fs[0], fs[3], fs[4], fs[2]}
	if got := Sort(fs); !slices.Equal(got, want) {
		t.Errorf("Sort =\n%v\nwant\n%v", got, want)
	}
}

func TestNaturalCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "b", -1}, {"a9", "a10", -1}, {"line 7: x", "line 13: x", -1},
		{"x10y2", "x10y10", -1}, {"007", "7", -1}, {"7", "007", 1}, {"a", "a1", -1},
		{"file-2.yaml", "file-10.yaml", -1}, {"99999999999999999999999", "100000000000000000000000", -1},
		{"abc", "abc", 0}, {"1a", "a", -1},
	}
	for _, tt := range tests {
		if got := NaturalCompare(tt.a, tt.b); got != tt.want {
			t.Errorf("NaturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := NaturalCompare(tt.b, tt.a); got != -tt.want {
			t.Errorf("NaturalCompare(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, -tt.want)
		}
	}
}
