package explain

import "testing"

// TestEnvoyBased checks which controllers count as running Envoy: a known
// domain or a subdomain of one, never a domain that merely ends in the
// same letters or a controllerName without a domain.
func TestEnvoyBased(t *testing.T) {
	for _, tt := range []struct {
		controller string
		want       bool
	}{
		{"gateway.envoyproxy.io/gatewayclass-controller", true},
		{"istio.io/gateway-controller", true},
		{"projectcontour.io/gateway-controller", true},
		{"kgateway.dev/kgateway", true},
		{"io.cilium/gateway-controller", true},
		{"gateways.kuma.io/controller", true},
		{"gwsim.dev/gateway-controller", false},
		{"gateway.nginx.org/nginx-gateway-controller", false},
		{"konghq.com/kic-gateway-controller", false},
		{"traefik.io/gateway-controller", false},
		{"haproxy.org/gateway-controller", false},
		{"notistio.io/gateway-controller", false},
		{"istio.io.example.com/gateway-controller", false},
		{"istio.io", false},
		{"", false},
	} {
		if got := envoyBased(tt.controller); got != tt.want {
			t.Errorf("envoyBased(%q) = %v, want %v", tt.controller, got, tt.want)
		}
	}
}
