package translate

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestUnmetBackendTLS(t *testing.T) {
	cluster := func(tls *ir.BackendTLS) *ir.Cluster {
		return &ir.Cluster{Name: "app/api:443", Service: "app/api", Port: 443, TLS: tls}
	}
	tests := []struct {
		name string
		b    backendResult
		want bool
	}{
		{"no cluster (an invalid backend)", backendResult{reason: "BackendNotFound"}, false},
		{"plaintext", backendResult{cluster: cluster(nil)}, false},
		{"a policy gwsim meets", backendResult{cluster: cluster(&ir.BackendTLS{Policy: "app/p", SNI: "api"})}, false},
		{"no usable CA", backendResult{cluster: cluster(&ir.BackendTLS{Policy: "app/p", Invalid: "NoValidCACertificate"})}, true},
		{"unsupported wellKnownCACertificates", backendResult{cluster: cluster(&ir.BackendTLS{Policy: "app/p", Invalid: "Invalid"})}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := unmetBackendTLS(tt.b, "spec.rules[0].backendRefs[0]", "")
			if ok != tt.want {
				t.Fatalf("unmet = %v, want %v", ok, tt.want)
			}
			if ok && got.reason != string(gwv1.RouteReasonUnsupportedProtocol) {
				t.Errorf("reason = %q, want UnsupportedProtocol", got.reason)
			}
		})
	}
}
