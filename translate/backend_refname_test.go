package translate

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestBackendRefName checks how an invalid backend is named in the IR: as
// its reference reads, so that the routes table can say which one is broken.
func TestBackendRefName(t *testing.T) {
	port := gwv1.PortNumber(8080)
	for _, tc := range []struct {
		group, kind string
		port        *gwv1.PortNumber
		want        string
	}{
		{"", "Service", &port, "shop/recs:8080"},
		{"", "Service", nil, "shop/recs"},
		{"example.io", "Bucket", nil, "example.io/Bucket shop/recs"},
		{"", "Pod", &port, "Pod shop/recs:8080"},
	} {
		if got := backendRefName(tc.group, tc.kind, "shop/recs", tc.port); got != tc.want {
			t.Errorf("backendRefName(%q, %q, %v) = %q, want %q", tc.group, tc.kind, tc.port, got, tc.want)
		}
	}
}
