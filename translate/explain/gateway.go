package explain

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// pickGateway chooses the Gateway the request reaches. A client connects
// to an address, so --address (or --gateway) decides when given. Without
// either, several Gateways may listen on the port: gwsim explains the
// first, by name, with a listener that covers the request, since that is
// most likely the one meant, and says which others it passed over. ok is
// false when the address names no Gateway.
func (w *world) pickGateway(req Request) (gateway string, ok bool, notes []string) {
	if req.Address != "" {
		names := w.gatewaysWithAddress(req.Address)
		if req.Gateway != "" && !slices.Contains(names, req.Gateway) {
			return req.Gateway, false, []string{fmt.Sprintf("Gateway %s does not have address %s", req.Gateway, req.Address)}
		}
		switch len(names) {
		case 0:
			return "", false, []string{fmt.Sprintf("no Gateway has address %s in spec.addresses or status.addresses", req.Address)}
		case 1:
			return names[0], true, nil
		}
		return names[0], true, []string{fmt.Sprintf("Gateways %s all have address %s; explaining %s", strings.Join(names, ", "), req.Address, names[0])}
	}
	if req.Gateway != "" {
		return req.Gateway, true, nil
	}
	var onPort []string
	chosen, best := "", 4
	for _, g := range w.in.IR.Gateways {
		for i := range g.Listeners {
			port := &g.Listeners[i]
			if port.Port != req.Port {
				continue
			}
			onPort = append(onPort, g.Name)
			if rank := w.gatewayRank(g.Name, port, req); rank < best {
				chosen, best = g.Name, rank
			}
		}
	}
	if len(onPort) <= 1 {
		return "", true, nil
	}
	return chosen, true, []string{fmt.Sprintf(
		"Gateways %s listen on port %d; explaining %s, %s (pass --gateway or --address to choose another)",
		strings.Join(onPort, ", "), req.Port, chosen, rankReason(best, evaluate.ListenerHost(w.portOf(chosen, req.Port), req.Request)))}
}

// gatewayRank orders the Gateways on a port by how likely the request is
// meant for them: one with a listener that covers the request first, then
// an accepted one (0 is best).
func (w *world) gatewayRank(name string, port *ir.Listener, req Request) int {
	rank := 2
	host := evaluate.ListenerHost(port, req.Request)
	for _, l := range port.Listeners {
		if l.Hostname == "" || evaluate.HostMatches(l.Hostname, host) {
			rank = 0
			break
		}
	}
	if w.gatewayProblem(gatewayKey(name)) != nil {
		rank++
	}
	return rank
}

// rankReason says why a Gateway of that gatewayRank was chosen.
func rankReason(rank int, host string) string {
	switch rank {
	case 0:
		return fmt.Sprintf("the first by name that is accepted and has a listener covering %s", host)
	case 1:
		return fmt.Sprintf("the first by name with a listener covering %s (it is not accepted)", host)
	case 2:
		return fmt.Sprintf("the first by name that is accepted (none has a listener covering %s)", host)
	}
	return fmt.Sprintf("the first by name (none is accepted or has a listener covering %s)", host)
}

// portOf returns the IR port of the Gateway "namespace/name".
func (w *world) portOf(gateway string, port int32) *ir.Listener {
	if g := w.irGateway(gateway); g != nil {
		for i := range g.Listeners {
			if g.Listeners[i].Port == port {
				return &g.Listeners[i]
			}
		}
	}
	return &ir.Listener{}
}

// gatewaysWithAddress lists, by name, the Gateways whose status or spec
// holds the address.
func (w *world) gatewaysWithAddress(addr string) []string {
	var out []string
	for _, g := range w.in.Gateways {
		key := types.NamespacedName{Namespace: g.Namespace, Name: g.Name}
		found := false
		for _, a := range g.Spec.Addresses {
			found = found || strings.EqualFold(a.Value, addr)
		}
		for _, a := range w.in.Status.Gateways[key].Addresses {
			found = found || strings.EqualFold(a.Value, addr)
		}
		if found {
			out = append(out, key.String())
		}
	}
	slices.Sort(out)
	return out
}
