package evaluate

import "testing"

func TestNormalizePath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/", "/"},
		{"/a/b", "/a/b"},
		{"/foo/../exact/", "/exact/"},
		{"/a/./b/../c", "/a/c"},
		{"/a/b/..", "/a/"},
		{"/a/b/.", "/a/b/"},
		{"/../../a", "/a"},
		{"//a///b", "/a/b"},
		{"/a//../b", "/b"},
		{"/a/..b/c.d", "/a/..b/c.d"},
		{"/a/%2e%2e/b", "/a/%2e%2e/b"},
		{"/x/../y?q=/../z", "/y?q=/../z"},
	}
	for _, tt := range tests {
		if got := NormalizePath(tt.in); got != tt.want {
			t.Errorf("NormalizePath(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := NormalizePath(NormalizePath(tt.in)); got != NormalizePath(tt.in) {
			t.Errorf("NormalizePath is not idempotent on %q: %q", tt.in, got)
		}
	}
}
