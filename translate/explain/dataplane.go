package explain

import (
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// A request that no route takes gets a 404 from every conformant gateway,
// but each data plane names it its own way. gwsim says route_not_found
// (404), Envoy's response code details, and adds Envoy's response flag NR
// (what an Envoy access log shows) only when the Gateway's controller runs
// Envoy: naming NR for nginx, Kong or HAProxy would send users looking
// for a log field their gateway does not write.

// envoyControllers are the controllerName domains of the Gateway API
// implementations whose data plane is Envoy, from their documentation:
// Envoy Gateway, Istio, Contour, kgateway and Gloo, Cilium, Emissary,
// Higress, Kuma and Consul.
var envoyControllers = []string{
	"gateway.envoyproxy.io/",
	"istio.io/",
	"projectcontour.io/",
	"kgateway.dev/",
	"solo.io/",
	"io.cilium/",
	"getambassador.io/",
	"higress.io/",
	"kuma.io/",
	"consul.hashicorp.com/",
}

// envoyBased reports whether the controller of a GatewayClass runs Envoy:
// its controllerName is in one of envoyControllers' domains (or a
// subdomain, as gateways.kuma.io/controller is).
func envoyBased(controllerName string) bool {
	domain, _, ok := strings.Cut(controllerName, "/")
	if !ok {
		return false
	}
	for _, c := range envoyControllers {
		d := strings.TrimSuffix(c, "/")
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	return false
}

// routeNotFound is how the answer names the 404 of a request no route
// takes on Gateway gw (nil when the scene has none).
func (w *world) routeNotFound(gw *ir.Gateway) string {
	if gw != nil && envoyBased(w.controllers[gw.Class]) {
		return "route_not_found (404, Envoy response flag NR)"
	}
	return "route_not_found (404)"
}
