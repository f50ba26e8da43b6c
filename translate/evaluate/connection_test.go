package evaluate

import (
	"math/rand/v2"
	"testing"

	"github.com/gwsim/gwsim/translate/ir"
)

// connectionModel has an HTTP port, an HTTPS port whose admin listener
// validates client certificates, a TLS passthrough port and a TCP port.
func connectionModel() ir.IR {
	all := []ir.Route{{Match: ir.Match{PathType: "PathPrefix", Path: "/"}, Action: ir.Action{Backends: []ir.WeightedBackend{{Cluster: "ns/a:80", Weight: 1}}}}}
	fwd := []ir.L4Route{{Listener: "tls", SNI: "*", Backends: []ir.WeightedBackend{{Cluster: "ns/a:80", Weight: 1}}}}
	return ir.IR{Gateways: []ir.Gateway{{
		Name: "ns/gw",
		Listeners: []ir.Listener{
			{Port: 80, Protocol: "HTTP", Listeners: []ir.GatewayListener{{Name: "http", Protocol: "HTTP"}},
				VirtualHosts: []ir.VirtualHost{{Hostname: "*", Listener: "http", Routes: all}}},
			{Port: 443, Protocol: "HTTPS",
				Listeners: []ir.GatewayListener{{Name: "admin", Protocol: "HTTPS", Hostname: "admin.example.com"}, {Name: "https", Protocol: "HTTPS"}},
				TLS: []ir.TLS{
					{Listener: "admin", Mode: "Terminate", Certificates: []string{"ns/admin"}, FrontendValidation: &ir.FrontendValidation{Mode: "AllowValidOnly"}},
					{Listener: "https", Mode: "Terminate", Certificates: []string{"ns/cert"}},
				},
				VirtualHosts: []ir.VirtualHost{
					{Hostname: "admin.example.com", Listener: "admin", Routes: all},
					{Hostname: "*", Listener: "https", Routes: all},
				}},
			{Port: 8443, Protocol: "TLS", Listeners: []ir.GatewayListener{{Name: "tls", Protocol: "TLS"}},
				TLS: []ir.TLS{{Listener: "tls", Mode: "Passthrough"}}, TLSRoutes: fwd},
		},
		Clusters: []ir.Cluster{{Name: "ns/a:80", Endpoints: []ir.Endpoint{{Address: "10.0.0.1", Port: 8080}}}},
	}}}
}

// TestConnect checks the connection stage of HTTP requests: which
// transport each listener takes, client certificates and misdirected
// requests.
func TestConnect(t *testing.T) {
	refused := &ClientCertificate{Alert: "certificate required", Why: "the client sent no certificate"}
	tests := []struct {
		name    string
		req     Request
		outcome Outcome
		status  int
	}{
		{"plaintext on the HTTP port", Request{Scheme: "http", Host: "a.example.com", Port: 80}, Routed, 200},
		{"TLS to the HTTP port", Request{Scheme: "https", Host: "a.example.com", Port: 80}, ConnectionFailed, 0},
		{"plaintext to the HTTPS port", Request{Scheme: "http", Host: "a.example.com", Port: 443}, ConnectionFailed, 0},
		{"TLS to the HTTPS port", Request{Scheme: "https", Host: "a.example.com", Port: 443}, Routed, 200},
		{"valid client certificate", Request{Scheme: "https", Host: "admin.example.com", Port: 443, ClientCertificate: &ClientCertificate{Verified: true}}, Routed, 200},
		{"no client certificate", Request{Scheme: "https", Host: "admin.example.com", Port: 443, ClientCertificate: refused}, ConnectionFailed, 0},
		{"certificate not asked for", Request{Scheme: "https", Host: "a.example.com", Port: 443, ClientCertificate: refused}, Routed, 200},
		{"Host of another listener than the SNI's", Request{Scheme: "https", Host: "admin.example.com", SNI: "a.example.com", Port: 443}, Misdirected, 421},
		{"HTTPS request to a TLS passthrough listener", Request{Scheme: "https", Host: "a.example.com", Port: 8443}, Forwarded, 0},
		{"plaintext to a TLS listener", Request{Scheme: "http", Host: "a.example.com", Port: 8443}, ConnectionFailed, 0},
		{"nothing on the port", Request{Scheme: "http", Host: "a.example.com", Port: 81}, NoGateway, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Evaluate(connectionModel(), tt.req)
			if res.Outcome != tt.outcome || res.Status != tt.status {
				t.Errorf("got %s %d (%s), want %s %d", res.Outcome, res.Status, res.Reason, tt.outcome, tt.status)
			}
			if res.Outcome != Routed && res.Reason == "" {
				t.Errorf("%s without a reason", res.Outcome)
			}
		})
	}
}

// A passed-through connection reaches an endpoint with the client's SNI.
func TestStreamTarget(t *testing.T) {
	c := Connection{Port: 8443, Protocol: "TLS", SNI: "db.example.com"}
	res := EvaluateConnection(connectionModel(), c)
	tg, why := StreamTarget(res, c, rand.New(rand.NewPCG(1, 2)))
	if why != "" || tg.Endpoint.Address != "10.0.0.1" || tg.ServerName != "db.example.com" {
		t.Errorf("got %+v (%q), want endpoint 10.0.0.1 with SNI db.example.com", tg, why)
	}
	res.Cluster = &ir.Cluster{Name: "ns/a:80"}
	if _, why := StreamTarget(res, c, rand.New(rand.NewPCG(1, 2))); why == "" {
		t.Error("a cluster without endpoints gives a target")
	}
}
