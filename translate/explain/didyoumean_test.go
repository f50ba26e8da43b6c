package explain

import "testing"

func TestDidYouMean(t *testing.T) {
	tests := []struct{ got, want, out string }{
		{"secur.example.com", "secure.example.com", " (did you mean secure.example.com?)"},
		{"shop.exmaple.com", "shop.example.com", " (did you mean shop.example.com?)"},
		{"a.exmple.com", "*.example.com", " (did you mean *.example.com?)"},
		{"/apii", "/api", " (did you mean /api?)"},
		{"/v2", "/v1", " (did you mean /v1?)"},
		{"/orders", "/users", ""},
		{"db.example.org", "db.example.com", ""},
		{"same.example.com", "same.example.com", ""},
		{"example", "*.example.com", ""},
	}
	for _, tt := range tests {
		if got := didYouMean(tt.got, tt.want); got != tt.out {
			t.Errorf("didYouMean(%q, %q) = %q, want %q", tt.got, tt.want, got, tt.out)
		}
	}
}

func TestEditDistanceIsSymmetric(t *testing.T) {
	pairs := [][2]string{{"", "abc"}, {"kitten", "sitting"}, {"flaw", "lawn"}}
	want := []int{3, 3, 2}
	for i, p := range pairs {
		if a, b := editDistance(p[0], p[1]), editDistance(p[1], p[0]); a != want[i] || b != want[i] {
			t.Errorf("editDistance(%q, %q) = %d, %d, want %d", p[0], p[1], a, b, want[i])
		}
	}
}

func TestFirstSegments(t *testing.T) {
	tests := []struct{ path, prefix, want string }{
		{"/apii/items", "/api", "/apii"},
		{"/v1/userz/7", "/v1/users", "/v1/userz"},
		{"/x", "/a/b", "/x"},
	}
	for _, tt := range tests {
		if got := firstSegments(tt.path, tt.prefix); got != tt.want {
			t.Errorf("firstSegments(%q, %q) = %q, want %q", tt.path, tt.prefix, got, tt.want)
		}
	}
}

func TestInGRPCTerms(t *testing.T) {
	tests := []struct {
		key  grpcKey
		path string
		want string
	}{
		{grpcKey{"shop.v1.Orders", "Get"}, "/shop.v1.Orders/List", "method Get required; the call is to List"},
		{grpcKey{"shop.v1.Orders", "Get"}, "/shop.v1.Order/Get", "service shop.v1.Orders required; the call is to shop.v1.Order (did you mean shop.v1.Orders?)"},
		{grpcKey{"", "Check"}, "/grpc.health.v1.Health/Chek", "method Check required; the call is to Chek (did you mean Check?)"},
		{grpcKey{}, "/a/b", "unchanged"},
	}
	for _, tt := range tests {
		misses := []Miss{{Condition: CondPath, Message: "unchanged"}, {Condition: CondHostname, Message: "host"}}
		inGRPCTerms(misses, tt.key, tt.path)
		if misses[0].Message != tt.want || misses[1].Message != "host" {
			t.Errorf("inGRPCTerms(%+v, %q) = %q, %q; want %q", tt.key, tt.path, misses[0].Message, misses[1].Message, tt.want)
		}
	}
}
