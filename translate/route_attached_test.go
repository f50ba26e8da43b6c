package translate

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestAttachedRoutesCountAttachment checks the ListenerStatus.AttachedRoutes
// godoc: "Listener or Route status does not impact successful attachment".
// Two listeners conflict on port 80 (neither accepted), a third is fine; a
// route that selects a listener by sectionName is attached and counted
// there whether or not the listener is accepted, its Accepted condition is
// True and says where it is not served, and only the accepted listener
// serves routes in the IR.
func TestAttachedRoutesCountAttachment(t *testing.T) {
	tests := []struct {
		section      string
		wantAttached map[gwv1.SectionName]int32
		wantServed   bool
		wantNote     bool
	}{
		{"", map[gwv1.SectionName]int32{"a": 1, "b": 1, "ok": 1}, true, true},
		{"a", map[gwv1.SectionName]int32{"a": 1}, false, true},
		{"ok", map[gwv1.SectionName]int32{"ok": 1}, true, false},
	}
	for _, tt := range tests {
		out := translateT(t, Input{
			GatewayClasses: []*gwv1.GatewayClass{testClass()},
			Gateways: []*gwv1.Gateway{testGateway(
				httpListener("a", 80, "www.example.com"), httpListener("b", 80, "www.example.com"), httpListener("ok", 8080, ""))},
			HTTPRoutes: []*gwv1.HTTPRoute{testRoute("app", "web", gwParent(tt.section), "svc")},
			Services:   []*corev1.Service{testService("app", "svc")},
		}, Options{})
		got := map[gwv1.SectionName]int32{}
		for _, l := range out.Status.Gateways[keyOf("infra", "gw")].Listeners {
			if l.AttachedRoutes > 0 {
				got[l.Name] = l.AttachedRoutes
			}
		}
		if len(got) != len(tt.wantAttached) {
			t.Errorf("section %q: attachedRoutes = %v, want %v", tt.section, got, tt.wantAttached)
		}
		for name, n := range tt.wantAttached {
			if got[name] != n {
				t.Errorf("section %q: attachedRoutes = %v, want %v", tt.section, got, tt.wantAttached)
			}
		}
		c := acceptedOf(t, out, "HTTPRoute", "app", "web")
		if c.Status != metav1.ConditionTrue || c.Reason != string(gwv1.RouteReasonAccepted) {
			t.Errorf("section %q: Accepted=%s (%s), want True (Accepted)", tt.section, c.Status, c.Reason)
		}
		if note := strings.Contains(c.Message, "is not accepted (HostnameConflict)"); note != tt.wantNote {
			t.Errorf("section %q: message %q, want the unserved listeners named: %v", tt.section, c.Message, tt.wantNote)
		}
		served := false
		for _, g := range out.IR.Gateways {
			for _, l := range g.Listeners {
				if l.Port == 80 && len(l.VirtualHosts) > 0 {
					t.Errorf("section %q: port 80 serves %v; its listeners are not accepted", tt.section, l.VirtualHosts)
				}
				served = served || len(l.VirtualHosts) > 0
			}
			if len(g.Clusters) > 0 != tt.wantServed {
				t.Errorf("section %q: clusters %v, want some: %v", tt.section, g.Clusters, tt.wantServed)
			}
		}
		if served != tt.wantServed {
			t.Errorf("section %q: served = %v, want %v", tt.section, served, tt.wantServed)
		}
	}
}
