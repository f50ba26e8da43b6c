package translate

import (
	"slices"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestHostnameMatches(t *testing.T) {
	tests := []struct {
		pattern, host string
		want          bool
	}{
		{"example.com", "example.com", true},
		{"example.com", "EXAMPLE.com", true},
		{"example.com", "a.example.com", false},
		{"*.example.com", "a.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "aexample.com", false},
		{"*.example.com", "*.a.example.com", true},
		{"*.example.com", "*.example.com", true},
		{"*.a.example.com", "*.example.com", false},
		{"a.example.com", "*.example.com", false},
	}
	for _, tt := range tests {
		if got := hostnameMatches(tt.pattern, tt.host); got != tt.want {
			t.Errorf("hostnameMatches(%q, %q) = %v, want %v", tt.pattern, tt.host, got, tt.want)
		}
	}
}

func TestIntersectHostnames(t *testing.T) {
	h := func(s string) *gwv1.Hostname { v := gwv1.Hostname(s); return &v }
	tests := []struct {
		name     string
		listener *gwv1.Hostname
		route    []gwv1.Hostname
		want     []string
	}{
		{"neither", nil, nil, []string{"*"}},
		{"listener only", h("a.example.com"), nil, []string{"a.example.com"}},
		{"route only", nil, []gwv1.Hostname{"b.x", "a.x"}, []string{"a.x", "b.x"}},
		{"exact equal", h("a.example.com"), []gwv1.Hostname{"a.example.com"}, []string{"a.example.com"}},
		{"exact differ", h("a.example.com"), []gwv1.Hostname{"b.example.com"}, nil},
		{"listener wildcard covers route", h("*.example.com"), []gwv1.Hostname{"a.example.com", "other.org"}, []string{"a.example.com"}},
		{"route wildcard covers listener", h("a.example.com"), []gwv1.Hostname{"*.example.com"}, []string{"a.example.com"}},
		{"narrower route wildcard", h("*.example.com"), []gwv1.Hostname{"*.a.example.com"}, []string{"*.a.example.com"}},
		{"narrower listener wildcard", h("*.a.example.com"), []gwv1.Hostname{"*.example.com"}, []string{"*.a.example.com"}},
		{"wildcard not covering apex", h("*.example.com"), []gwv1.Hostname{"example.com"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := intersectHostnames(tt.listener, tt.route); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCompareHostnamesIsAntisymmetric(t *testing.T) {
	order := []string{"a.example.com", "b.example.com", "*.a.example.com", "*.example.com", "*.com", "*"}
	for i, a := range order {
		for j, b := range order {
			got := compareHostnames(a, b)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if (got < 0) != (want < 0) || (got > 0) != (want > 0) {
				t.Errorf("compareHostnames(%q, %q) = %d, want sign %d", a, b, got, want)
			}
		}
	}
}
