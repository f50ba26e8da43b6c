package cmd

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/ir"
)

func TestFormatL4Action(t *testing.T) {
	older := &ir.Origin{Kind: "TCPRoute", Namespace: "db", Name: "primary"}
	tests := []struct {
		name string
		in   l4Row
		want string
	}{
		{"weighted", l4Row{Backends: []ir.WeightedBackend{{Cluster: "ns/a:80", Weight: 3}, {Weight: 1, Invalid: "BackendNotFound"}}},
			"ns/a:80(w=3), -(w=1,invalid: BackendNotFound)"},
		{"rejects everything", l4Row{Backends: []ir.WeightedBackend{{Weight: 1, Invalid: "RefNotPermitted"}}, Reject: "no valid backend with a weight above 0"},
			"reject (invalid: no valid backend with a weight above 0)"},
		{"superseded", l4Row{Backends: []ir.WeightedBackend{{Cluster: "db/replica:5432", Weight: 1}}, SupersededBy: older},
			"db/replica:5432(w=1) (superseded by TCPRoute db/primary#0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatL4Action(tt.in); got != tt.want {
				t.Errorf("formatL4Action() = %q, want %q", got, tt.want)
			}
		})
	}
}

// l4IR has an HTTP route and TLS routes on one Gateway, and TCP and UDP
// listeners sharing port 53 on another.
func l4IR() ir.IR {
	backend := func(c string) []ir.WeightedBackend { return []ir.WeightedBackend{{Cluster: c, Weight: 1}} }
	return ir.IR{Gateways: []ir.Gateway{
		{Name: "infra/dns", Listeners: []ir.Listener{{
			Port: 53, Protocol: "TCP+UDP",
			Listeners: []ir.GatewayListener{{Name: "tcp", Protocol: "TCP"}, {Name: "udp", Protocol: "UDP"}},
			Forward: []ir.L4Route{
				{Listener: "tcp", Backends: backend("dns/coredns:53"), Origin: ir.Origin{Kind: "TCPRoute", Namespace: "dns", Name: "tcp"}},
				{Listener: "udp", Backends: backend("dns/coredns:53/UDP"), Origin: ir.Origin{Kind: "UDPRoute", Namespace: "dns", Name: "udp"}},
			},
		}}},
		{Name: "infra/web", Listeners: []ir.Listener{
			{Port: 80, Protocol: "HTTP", VirtualHosts: []ir.VirtualHost{{Hostname: "*", Routes: []ir.Route{{
				Match:  ir.Match{PathType: "PathPrefix", Path: "/"},
				Action: ir.Action{Backends: backend("apps/web:80")},
				Origin: ir.Origin{Kind: "HTTPRoute", Namespace: "apps", Name: "web"},
			}}}}},
			{Port: 443, Protocol: "TLS",
				Listeners: []ir.GatewayListener{{Name: "tls", Protocol: "TLS"}},
				TLSRoutes: []ir.L4Route{
					{Listener: "tls", SNI: "db.example.com", Backends: backend("apps/db:5432"), Origin: ir.Origin{Kind: "TLSRoute", Namespace: "apps", Name: "db"}},
					{Listener: "tls", SNI: "*", Backends: []ir.WeightedBackend{{Weight: 1, Invalid: "BackendNotFound"}},
						Reject: "no valid backend with a weight above 0", Origin: ir.Origin{Kind: "TLSRoute", Namespace: "apps", Name: "rest"}},
				}},
		}},
	}}
}

// TestRenderRoutesL4Text checks the wide table, which shows each L4 row's
// listener and the full reason a route rejects connections; the default
// table's cells are TestShortActionCell's.
func TestRenderRoutesL4Text(t *testing.T) {
	want := "" +
		"GATEWAY    PORT/PROTO  LISTENER  HOST            MATCH               ROUTE                 BACKENDS                                                  FILTERS\n" +
		"infra/dns  53/TCP      tcp       *               port                TCPRoute dns/tcp#0    dns/coredns:53(w=1)                                       -\n" +
		"infra/dns  53/UDP      udp       *               port                UDPRoute dns/udp#0    dns/coredns:53/UDP(w=1)                                   -\n" +
		"infra/web  80/HTTP     -         *               PathPrefix /        HTTPRoute apps/web#0  apps/web:80(w=1)                                          -\n" +
		"infra/web  443/TLS     tls       db.example.com  SNI db.example.com  TLSRoute apps/db#0    apps/db:5432(w=1)                                         -\n" +
		"infra/web  443/TLS     tls       *               SNI *               TLSRoute apps/rest#0  reject (invalid: no valid backend with a weight above 0)  -\n"
	var buf bytes.Buffer
	if err := renderRoutes(&buf, formatWide, l4IR(), routesView{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("renderRoutes() mismatch (-want +got):\n%s", diff)
	}
}

// An L4 row has no HTTP match or action in data output, only its l4 block.
func TestRenderRoutesL4Data(t *testing.T) {
	model := ir.IR{Gateways: []ir.Gateway{{Name: "ns/gw", Listeners: []ir.Listener{{
		Port: 5432, Protocol: "TCP", Listeners: []ir.GatewayListener{{Name: "pg", Protocol: "TCP"}},
		Forward: []ir.L4Route{{Listener: "pg", Backends: []ir.WeightedBackend{{Cluster: "ns/pg:5432", Weight: 1}},
			Origin: ir.Origin{Kind: "TCPRoute", Namespace: "ns", Name: "pg"}}},
	}}}}}
	want := `routes:
- gateway: ns/gw
  hostname: '*'
  l4:
    backends:
    - cluster: ns/pg:5432
      weight: 1
    match: port
  listener: pg
  origin:
    kind: TCPRoute
    match: 0
    name: pg
    namespace: ns
    rule: 0
  port: 5432
  protocol: TCP
`
	var buf bytes.Buffer
	if err := renderRoutes(&buf, formatYAML, model, routesView{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("renderRoutes() mismatch (-want +got):\n%s", diff)
	}
}
