package evaluate

import (
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// l4Model is one Gateway with TLS listeners on 443 (an exact and a
// wildcard hostname, isolated from each other), TCP and UDP listeners
// sharing 53, and an HTTPS listener on 8443.
func l4Model() ir.IR {
	route := func(listener, sni, cluster string) ir.L4Route {
		return ir.L4Route{Listener: listener, SNI: sni, Backends: []ir.WeightedBackend{{Cluster: cluster, Weight: 1}},
			Origin: ir.Origin{Kind: "TLSRoute", Namespace: "ns", Name: cluster}}
	}
	superseded := route("dns-tcp", "", "old-loser")
	superseded.SupersededBy = &ir.Origin{Kind: "TCPRoute", Namespace: "ns", Name: "dns"}
	split := route("wild", "split.example.com", "split")
	split.Backends = []ir.WeightedBackend{{Cluster: "split", Weight: 3}, {Weight: 1, Invalid: "BackendNotFound"}}
	broken := route("wild", "broken.example.com", "broken")
	broken.Backends, broken.Reject = []ir.WeightedBackend{{Weight: 1, Invalid: "BackendNotFound"}}, "no valid backend with a weight above 0"
	return ir.IR{Gateways: []ir.Gateway{{Name: "infra/gw", Listeners: []ir.Listener{
		{Port: 53, Protocol: "TCP+UDP",
			Listeners: []ir.GatewayListener{{Name: "dns-tcp", Protocol: "TCP"}, {Name: "dns-udp", Protocol: "UDP"}},
			Forward:   []ir.L4Route{superseded, route("dns-tcp", "", "dns-tcp"), route("dns-udp", "", "dns-udp")}},
		{Port: 443, Protocol: "TLS",
			Listeners: []ir.GatewayListener{{Name: "exact", Protocol: "TLS", Hostname: "db.example.com"}, {Name: "wild", Protocol: "TLS", Hostname: "*.example.com"}},
			TLS:       []ir.TLS{{Listener: "exact", Mode: "Passthrough"}, {Listener: "wild", Mode: "Terminate"}},
			TLSRoutes: []ir.L4Route{
				route("wild", "a.example.com", "a"), split, broken,
				route("wild", "*.example.com", "wild"),
			}},
		{Port: 8443, Protocol: "HTTPS", Listeners: []ir.GatewayListener{{Name: "https", Protocol: "HTTPS"}}},
	}}}}
}

func TestEvaluateConnection(t *testing.T) {
	tests := []struct {
		name     string
		c        Connection
		outcome  Outcome
		listener string
		cluster  string
		mode     string
	}{
		{"exact SNI beats the wildcard route", Connection{Port: 443, Protocol: "TLS", SNI: "a.example.com"}, Forwarded, "wild", "a", "Terminate"},
		{"wildcard SNI", Connection{Port: 443, Protocol: "TLS", SNI: "b.example.com"}, Forwarded, "wild", "wild", "Terminate"},
		{"SNI is case-insensitive", Connection{Port: 443, Protocol: "TLS", SNI: "A.Example.com"}, Forwarded, "wild", "a", "Terminate"},
		// Listener isolation: db.example.com belongs to listener exact, which
		// has no route, although the wildcard listener's route covers it.
		{"listener isolation", Connection{Port: 443, Protocol: "TLS", SNI: "db.example.com"}, RouteNotFound, "exact", "", "Passthrough"},
		{"SNI outside every listener", Connection{Port: 443, Protocol: "TLS", SNI: "a.example.org"}, NoListener, "", "", ""},
		{"no SNI", Connection{Port: 443, Protocol: "TLS"}, NoListener, "", "", ""},
		{"plain TCP to TLS listeners", Connection{Port: 443, Protocol: "TCP"}, NoListener, "", "", ""},
		{"valid share of a split", Connection{Port: 443, Protocol: "TLS", SNI: "split.example.com", Seed: 2}, Forwarded, "wild", "split", "Terminate"},
		{"invalid share of a split is rejected", Connection{Port: 443, Protocol: "TLS", SNI: "split.example.com", Seed: 3}, Rejected, "wild", "", "Terminate"},
		{"no valid backend", Connection{Port: 443, Protocol: "TLS", SNI: "broken.example.com"}, Rejected, "wild", "", "Terminate"},
		{"TCP skips the superseded route", Connection{Port: 53, Protocol: "TCP"}, Forwarded, "dns-tcp", "dns-tcp", ""},
		{"UDP on a shared port", Connection{Port: 53, Protocol: "UDP"}, Forwarded, "dns-udp", "dns-udp", ""},
		{"TLS client to a TCP listener is forwarded as is", Connection{Port: 53, Protocol: "TLS", SNI: "x"}, Forwarded, "dns-tcp", "dns-tcp", ""},
		{"no UDP listener", Connection{Port: 443, Protocol: "UDP"}, NoGateway, "", "", ""},
		{"HTTPS listener", Connection{Port: 8443, Protocol: "TLS", SNI: "x"}, HTTPListener, "https", "", ""},
		{"other Gateway only", Connection{Gateway: "infra/other", Port: 53, Protocol: "TCP"}, NoGateway, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EvaluateConnection(l4Model(), tt.c)
			cluster := ""
			if got.Outcome == Forwarded {
				cluster = got.Backend.Cluster
			}
			if got.Outcome != tt.outcome || got.Listener != tt.listener || cluster != tt.cluster || got.TLSMode != tt.mode {
				t.Errorf("got %s listener=%q cluster=%q mode=%q (%s), want %s %q %q %q",
					got.Outcome, got.Listener, cluster, got.TLSMode, got.Reason, tt.outcome, tt.listener, tt.cluster, tt.mode)
			}
			if got.Outcome != Forwarded && got.Reason == "" {
				t.Errorf("outcome %s without a reason", got.Outcome)
			}
		})
	}
}
