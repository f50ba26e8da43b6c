package load

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestIsAPIVersion(t *testing.T) {
	gv := schema.GroupVersion{Group: "gateway.networking.k8s.io", Version: "v1"}
	core := schema.GroupVersion{Version: "v1"}
	for _, tt := range []struct {
		s    string
		gv   schema.GroupVersion
		want bool
	}{
		{"gateway.networking.k8s.io/v1", gv, true},
		{"gateway.networking.k8s.io/v1beta1", gv, false},
		{"gateway.networking.k8s.io/v1/x", gv, false},
		{"v1", gv, false},
		{"v1", core, true},
		{"/v1", core, false},
	} {
		if got := isAPIVersion(tt.s, tt.gv); got != tt.want || got != (tt.s == tt.gv.String()) {
			t.Errorf("isAPIVersion(%q, %v) = %v, want %v", tt.s, tt.gv, got, tt.want)
		}
	}
}
