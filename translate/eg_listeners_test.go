package translate

import (
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestEnvoyMarkConflicts checks Envoy Gateway's conflict rules on one
// Gateway's listeners: incompatible protocols on a port conflict all,
// shared hostnames conflict all, the first TCP or UDP listener of a port
// keeps it, and a listener whose own spec failed takes part in nothing.
func TestEnvoyMarkConflicts(t *testing.T) {
	l := func(name string, p gwv1.ProtocolType, port gwv1.PortNumber, host string) *listenerResult {
		r := &listenerResult{spec: gwv1.Listener{Name: gwv1.SectionName(name), Protocol: p, Port: port}, envoy: true}
		if host != "" {
			h := gwv1.Hostname(host)
			r.spec.Hostname = &h
		}
		return r
	}
	inSet := func(set string, r *listenerResult) *listenerResult {
		r.owner = listenerOwner{kind: "ListenerSet", namespace: "ns", name: set}
		return r
	}
	broken := func(r *listenerResult) *listenerResult {
		r.problems.setProgrammed(string(gwv1.ListenerReasonInvalid), "broken")
		return r
	}
	tests := []struct {
		name      string
		listeners []*listenerResult
		want      string // each listener's conflict reason, "-" for none, comma-separated
	}{
		{"HTTP and TCP share a port", []*listenerResult{l("a", gwv1.HTTPProtocolType, 80, ""), l("b", gwv1.TCPProtocolType, 80, "")},
			"ProtocolConflict,ProtocolConflict"},
		{"UDP clashes with nothing", []*listenerResult{l("a", gwv1.HTTPProtocolType, 80, ""), l("b", gwv1.UDPProtocolType, 80, "")}, "-,-"},
		{"HTTPS and TLS share a port and a hostname", []*listenerResult{
			l("a", gwv1.HTTPSProtocolType, 443, "a.example.com"), l("b", gwv1.TLSProtocolType, 443, "a.example.com"), l("c", gwv1.TLSProtocolType, 443, "c.example.com")},
			"HostnameConflict,HostnameConflict,-"},
		{"the first TCP listener keeps its port", []*listenerResult{
			l("a", gwv1.TCPProtocolType, 5432, ""), l("b", gwv1.TCPProtocolType, 5432, ""), l("c", gwv1.TCPProtocolType, 5433, "")},
			"-,ProtocolConflict,-"},
		{"the first UDP listener keeps its port", []*listenerResult{l("a", gwv1.UDPProtocolType, 53, ""), l("b", gwv1.UDPProtocolType, 53, "")},
			"-,ProtocolConflict"},
		{"a broken listener takes no port", []*listenerResult{broken(l("a", gwv1.TCPProtocolType, 5432, "")), l("b", gwv1.TCPProtocolType, 5432, "")},
			"-,-"},
		{"a protocol loser takes no hostname", []*listenerResult{
			l("a", gwv1.HTTPProtocolType, 80, ""), l("b", gwv1.TCPProtocolType, 80, ""), l("c", gwv1.HTTPProtocolType, 80, "x.example.com")},
			"ProtocolConflict,ProtocolConflict,ProtocolConflict"},
		{"the Gateway's listener keeps a hostname from a ListenerSet's", []*listenerResult{
			l("a", gwv1.HTTPProtocolType, 80, "x.example.com"), inSet("s", l("b", gwv1.HTTPProtocolType, 80, "x.example.com"))},
			"-,HostnameConflict"},
		{"the first ListenerSet keeps a hostname", []*listenerResult{
			inSet("s", l("a", gwv1.HTTPProtocolType, 80, "x.example.com")), inSet("t", l("b", gwv1.HTTPProtocolType, 80, "x.example.com"))},
			"-,HostnameConflict"},
		{"no ListenerSet keeps a hostname two listeners of one share", []*listenerResult{
			inSet("s", l("a", gwv1.HTTPProtocolType, 80, "x.example.com")), inSet("s", l("b", gwv1.HTTPProtocolType, 80, "x.example.com")),
			inSet("t", l("c", gwv1.HTTPProtocolType, 80, "x.example.com"))},
			"HostnameConflict,HostnameConflict,HostnameConflict"},
		{"the Gateway's protocol keeps the port", []*listenerResult{
			l("a", gwv1.HTTPProtocolType, 80, ""), inSet("s", l("b", gwv1.TCPProtocolType, 80, ""))},
			"-,ProtocolConflict"},
		{"a ListenerSet that mixes protocols loses the port", []*listenerResult{
			inSet("s", l("a", gwv1.HTTPProtocolType, 80, "")), inSet("s", l("b", gwv1.TCPProtocolType, 80, "")), inSet("t", l("c", gwv1.HTTPProtocolType, 80, ""))},
			"ProtocolConflict,ProtocolConflict,-"},
	}
	for _, tt := range tests {
		envoyMarkConflicts(tt.listeners)
		got := make([]string, len(tt.listeners))
		for i, r := range tt.listeners {
			got[i] = firstNonEmpty(r.problems.conflictReason, "-")
		}
		if g := strings.Join(got, ","); g != tt.want {
			t.Errorf("%s: conflicts %s, want %s", tt.name, g, tt.want)
		}
	}
}

// TestEnvoyProblemConditions checks the condition shapes Envoy Gateway
// writes: a spec problem says nothing on Accepted, some invalid
// certificates leave the listener Accepted and Programmed, and a
// ListenerSet's listener reads ListenersNotValid for Invalid.
func TestEnvoyProblemConditions(t *testing.T) {
	tests := []struct {
		name     string
		problems listenerProblems
		owner    string
		want     string
	}{
		{"healthy", listenerProblems{}, "Gateway", "Programmed=True/Programmed Accepted=True/Accepted ResolvedRefs=True/ResolvedRefs"},
		{"spec problem", listenerProblems{programmedReason: "Invalid"}, "Gateway", "Programmed=False/Invalid ResolvedRefs=True/ResolvedRefs"},
		{"some certificates invalid", listenerProblems{refsReason: egReasonPartiallyInvalidCertificateRef}, "Gateway",
			"ResolvedRefs=False/PartiallyInvalidCertificateRef Accepted=True/Accepted Programmed=True/Programmed"},
		{"every certificate invalid", listenerProblems{refsReason: "InvalidCertificateRef"}, "Gateway",
			"ResolvedRefs=False/InvalidCertificateRef Accepted=True/Accepted Programmed=False/Invalid"},
		{"certificates not permitted", listenerProblems{refsReason: "RefNotPermitted"}, "Gateway",
			"ResolvedRefs=False/RefNotPermitted Programmed=False/Invalid"},
		{"frontend CA", listenerProblems{frontendReason: "InvalidCACertificateRef"}, "Gateway",
			"ResolvedRefs=False/InvalidCACertificateRef Programmed=False/InvalidCACertificateRef Accepted=False/NoValidCACertificate"},
		{"conflict", listenerProblems{conflictReason: "HostnameConflict"}, "Gateway",
			"Conflicted=True/HostnameConflict Programmed=False/Invalid ResolvedRefs=True/ResolvedRefs"},
		{"spec problem on a ListenerSet", listenerProblems{programmedReason: "Invalid"}, "ListenerSet",
			"Programmed=False/ListenersNotValid ResolvedRefs=True/ResolvedRefs"},
	}
	for _, tt := range tests {
		r := &listenerResult{problems: tt.problems, owner: listenerOwner{kind: tt.owner}, envoy: true}
		var got []string
		for _, c := range r.problemConditions() {
			s := "False"
			if c.Status {
				s = "True"
			}
			got = append(got, c.Type+"="+s+"/"+c.Reason)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, g, tt.want)
		}
	}
}
