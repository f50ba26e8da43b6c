package translate

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// TestVirtualHostsShareRoutes checks that virtual hosts holding the very
// same routes share one array of them (vhostRoutes), and that a virtual
// host with other routes, or the same routes with others, has its own.
func TestVirtualHostsShareRoutes(t *testing.T) {
	both := testRoute("app", "both", gwParent(""), "svc", "a.example.com")
	onlyA := testRoute("app", "only-a", gwParent("a"), "svc", "b.example.com")
	out := translateT(t, Input{
		GatewayClasses: []*gwv1.GatewayClass{testClass()},
		Gateways:       []*gwv1.Gateway{testGateway(httpListener("a", 80, ""), httpListener("b", 8080, ""))},
		HTTPRoutes:     []*gwv1.HTTPRoute{both, onlyA},
		Services:       []*corev1.Service{testService("app", "svc")},
	}, Options{})
	hosts := map[string]ir.VirtualHost{}
	for _, l := range out.IR.Gateways[0].Listeners {
		for _, vh := range l.VirtualHosts {
			hosts[vh.Listener+" "+vh.Hostname] = vh
		}
	}
	onA, onB, other := hosts["a a.example.com"], hosts["b a.example.com"], hosts["a b.example.com"]
	if len(onA.Routes) != 1 || len(onB.Routes) != 1 || len(other.Routes) != 1 {
		t.Fatalf("virtual hosts %v: want a.example.com on both listeners and b.example.com on a, one route each", hosts)
	}
	if &onA.Routes[0] != &onB.Routes[0] {
		t.Error("a.example.com on listeners a and b hold the same route in two arrays")
	}
	if &other.Routes[0] == &onA.Routes[0] || other.Routes[0].Origin.Name != "only-a" {
		t.Errorf("b.example.com shares a.example.com's routes or holds %s", other.Routes[0].Origin.Name)
	}
}
