package translate

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestMarkMergedConflicts checks Envoy Gateway's rule for merged Gateways
// on the second of two Gateways, in order: the first holder of a
// (protocol, hostname, port) tuple keeps it.
func TestMarkMergedConflicts(t *testing.T) {
	host := func(h string) *gwv1.Hostname { v := gwv1.Hostname(h); return &v }
	l := func(p gwv1.ProtocolType, port int32, h *gwv1.Hostname) gwv1.Listener {
		return gwv1.Listener{Name: "l", Protocol: p, Port: gwv1.PortNumber(port), Hostname: h}
	}
	tests := []struct {
		name          string
		first, second gwv1.Listener
		firstInvalid  bool
		want          string
	}{
		{"the same tuple: the first Gateway keeps it", l(gwv1.HTTPProtocolType, 80, nil), l(gwv1.HTTPProtocolType, 80, nil), false,
			string(gwv1.ListenerReasonHostnameConflict)},
		{"another hostname on the port is another tuple", l(gwv1.HTTPProtocolType, 80, host("a.example.com")),
			l(gwv1.HTTPProtocolType, 80, host("b.example.com")), false, ""},
		{"HTTPS and TLS are other tuples", l(gwv1.HTTPSProtocolType, 443, host("a.example.com")),
			l(gwv1.TLSProtocolType, 443, host("a.example.com")), false, ""},
		{"protocols are not compared across Gateways", l(gwv1.HTTPProtocolType, 80, nil), l(gwv1.TCPProtocolType, 80, nil), false, ""},
		{"two TCP listeners on a port", l(gwv1.TCPProtocolType, 9000, nil), l(gwv1.TCPProtocolType, 9000, nil), false,
			string(gwv1.ListenerReasonHostnameConflict)},
		{"a listener invalid on its own takes no tuple", l(gwv1.HTTPProtocolType, 80, nil), l(gwv1.HTTPProtocolType, 80, nil), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &listenerResult{spec: tt.first}
			if tt.firstInvalid {
				a.problems.refsReason = string(gwv1.ListenerReasonInvalidCertificateRef)
			}
			b := &listenerResult{spec: tt.second}
			markMergedConflicts([]*gatewayResult{{nsName: "ns/a", listeners: []*listenerResult{a}}, {nsName: "ns/b", listeners: []*listenerResult{b}}})
			if a.problems.conflictReason != "" {
				t.Errorf("the first Gateway's listener is conflicted: %s", a.problems.conflictMsg)
			}
			if b.problems.conflictReason != tt.want {
				t.Errorf("conflict %q, want %q (%s)", b.problems.conflictReason, tt.want, b.problems.conflictMsg)
			}
			if tt.want != "" && b.accepted {
				t.Error("a conflicted listener is still accepted")
			}
		})
	}
}
