package evaluate

import (
	"cmp"
	"slices"

	"github.com/gwsim/gwsim/translate/ir"
)

// StreamPort is a port on which a Gateway takes connections or datagrams
// that L4 routing (EvaluateConnection) answers.
type StreamPort struct {
	Port int32
	// Transport is "TCP" or "UDP".
	Transport string
}

// StreamPorts lists the ports, sorted, on which the Gateway gateway
// ("namespace/name") has a TCP, TLS or UDP listener: where a network in
// front of the data plane must accept connections and datagrams for
// EvaluateConnection to answer. Ports with only HTTP and HTTPS listeners
// are left out; their requests are answered by Evaluate. A port with a TCP
// and a UDP listener is listed once per transport.
func StreamPorts(model ir.IR, gateway string) []StreamPort {
	var out []StreamPort
	for gi := range model.Gateways {
		if model.Gateways[gi].Name == gateway {
			out = streamPorts(&model.Gateways[gi])
		}
	}
	return out
}

// streamPorts is StreamPorts of one Gateway.
func streamPorts(gw *ir.Gateway) []StreamPort {
	var out []StreamPort
	for _, p := range gw.Listeners {
		for _, l := range p.Listeners {
			switch l.Protocol {
			case "TCP", "TLS", "UDP":
				sp := StreamPort{Port: p.Port, Transport: transport(l.Protocol)}
				if !slices.Contains(out, sp) {
					out = append(out, sp)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b StreamPort) int {
		return cmp.Or(cmp.Compare(a.Port, b.Port), cmp.Compare(a.Transport, b.Transport))
	})
	return out
}
