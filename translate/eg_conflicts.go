package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// envoyMarkConflicts decides conflicts among a Gateway's listeners as
// Envoy Gateway does: its own, then those of its attached ListenerSets in
// precedence order (ListenerSets by creationTimestamp, then
// namespace/name). Only the listeners whose own spec passed take part
// (envoySpecValid), so a broken listener takes no port from a sound one.
// On each port, in turn:
//
//   - protocols (HTTPS and TLS count as one; UDP clashes with none): when
//     the Gateway's own listeners use more than one, every listener on the
//     port is ProtocolConflict; else the Gateway's protocol, or without
//     one the first ListenerSet listener's, keeps the port, and a
//     listener of another protocol is ProtocolConflict, as is every
//     listener of a ListenerSet that itself uses more than one there;
//   - hostnames, among HTTP, HTTPS and TLS listeners that kept the port:
//     listeners sharing one are HostnameConflict but a winner, the
//     Gateway's listener, else the first ListenerSet listener; there is
//     none when two of the Gateway's listeners share it, and no
//     ListenerSet listener wins when two of one ListenerSet share it;
//   - the first TCP listener keeps the port and any later one is
//     ProtocolConflict; the same for UDP.
func envoyMarkConflicts(listeners []*listenerResult) {
	byPort := map[gwv1.PortNumber][]*listenerResult{}
	var ports []gwv1.PortNumber
	for _, r := range listeners {
		if !r.envoySpecValid() {
			continue
		}
		if _, ok := byPort[r.spec.Port]; !ok {
			ports = append(ports, r.spec.Port)
		}
		byPort[r.spec.Port] = append(byPort[r.spec.Port], r)
	}
	for _, port := range ports {
		on := byPort[port]
		lost := envoyProtocolConflicts(on)
		envoyHostnameConflicts(on, lost)
		envoyLayer4Conflicts(on, gwv1.TCPProtocolType)
		envoyLayer4Conflicts(on, gwv1.UDPProtocolType)
	}
}

// envoyProtocolConflicts applies the protocol rule to the listeners on one
// port and returns those that lost.
func envoyProtocolConflicts(on []*listenerResult) map[*listenerResult]bool {
	gatewayFamilies, families := map[string]bool{}, map[string]bool{}
	setFamilies := map[string]map[string]bool{}
	for _, r := range on {
		if r.spec.Protocol == gwv1.UDPProtocolType {
			continue
		}
		f := familyOf(r.spec.Protocol)
		families[f] = true
		if s := r.listenerSet(); s != "" {
			if setFamilies[s] == nil {
				setFamilies[s] = map[string]bool{}
			}
			setFamilies[s][f] = true
		} else {
			gatewayFamilies[f] = true
		}
	}
	lost := map[*listenerResult]bool{}
	if len(families) < 2 {
		return lost
	}
	winner := ""
	if len(gatewayFamilies) == 1 {
		for f := range gatewayFamilies {
			winner = f
		}
	}
	for _, r := range on {
		if r.spec.Protocol == gwv1.UDPProtocolType {
			continue
		}
		f, s := familyOf(r.spec.Protocol), r.listenerSet()
		switch {
		case len(gatewayFamilies) > 1, s != "" && len(gatewayFamilies) == 0 && len(setFamilies[s]) > 1:
		case winner == "":
			winner = f
			continue
		case f == winner:
			continue
		}
		lost[r] = true
		r.problems.conflictReason = string(gwv1.ListenerReasonProtocolConflict)
		r.problems.conflictMsg = fmt.Sprintf("port %d is used by listeners of protocols that cannot share it; move this listener to another port", r.spec.Port)
	}
	return lost
}

// envoyHostnameConflicts applies the hostname rule to the HTTP, HTTPS and
// TLS listeners on one port that did not lose it for their protocol.
func envoyHostnameConflicts(on []*listenerResult, lost map[*listenerResult]bool) {
	byHost := map[string][]*listenerResult{}
	var hosts []string
	for _, r := range on {
		if r.spec.Protocol == gwv1.TCPProtocolType || r.spec.Protocol == gwv1.UDPProtocolType || lost[r] {
			continue
		}
		h := hostnameOf(r.spec.Hostname)
		if _, ok := byHost[h]; !ok {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], r)
	}
	for _, h := range hosts {
		same := byHost[h]
		if len(same) < 2 {
			continue
		}
		winner := envoyHostnameWinner(same)
		for _, r := range same {
			if r == winner {
				continue
			}
			r.problems.conflictReason = string(gwv1.ListenerReasonHostnameConflict)
			r.problems.conflictMsg = fmt.Sprintf("another listener on port %d has hostname %q; give this listener a hostname of its own or another port",
				r.spec.Port, hostnameOf(r.spec.Hostname))
		}
	}
}

// envoyHostnameWinner picks the listener that keeps a hostname that
// listeners same share on one port, or nil.
func envoyHostnameWinner(same []*listenerResult) *listenerResult {
	gatewayOwn := 0
	perSet := map[string]int{}
	for _, r := range same {
		if s := r.listenerSet(); s != "" {
			perSet[s]++
		} else {
			gatewayOwn++
		}
	}
	if gatewayOwn > 1 {
		return nil
	}
	setDup := false
	for _, n := range perSet {
		setDup = setDup || n > 1
	}
	var winner *listenerResult
	for _, r := range same {
		switch {
		case setDup && r.listenerSet() != "":
		case winner == nil, winner.listenerSet() != "" && r.listenerSet() == "":
			winner = r
		}
	}
	return winner
}

// envoyLayer4Conflicts lets the first listener of protocol on one port keep
// it; any later one is ProtocolConflict.
func envoyLayer4Conflicts(on []*listenerResult, protocol gwv1.ProtocolType) {
	var first *listenerResult
	for _, r := range on {
		if r.spec.Protocol != protocol {
			continue
		}
		if first == nil {
			first = r
			continue
		}
		r.problems.conflictReason = string(gwv1.ListenerReasonProtocolConflict)
		r.problems.conflictMsg = fmt.Sprintf("another %s listener takes port %d first, and only one may; move this one to another port", protocol, r.spec.Port)
	}
}

// envoyListenerEntries evaluates the listeners of ListenerSet ls, attached
// to gr's Gateway, each on its own; envoySettleListenerSets decides their
// conflicts with the Gateway's and with one another.
func (w *world) envoyListenerEntries(gr *gatewayResult, ls *gwv1.ListenerSet) []*listenerResult {
	owner := listenerOwner{kind: "ListenerSet", namespace: ls.Namespace, name: ls.Name}
	entries := make([]*listenerResult, len(ls.Spec.Listeners))
	for i, e := range ls.Spec.Listeners {
		entries[i] = w.evaluateListener(gr.gateway, owner, listenerOf(e))
	}
	return entries
}

// envoySettleListenerSets decides conflicts over the Gateway's merged
// listeners, its own then those of sets in precedence order, as Envoy
// Gateway does (envoyMarkConflicts), and settles every one of them.
func envoySettleListenerSets(gr *gatewayResult, sets []*listenerSetResult) {
	merged := gr.listeners
	for _, s := range sets {
		merged = append(merged[:len(merged):len(merged)], s.listeners...)
	}
	envoyMarkConflicts(merged)
	for _, l := range merged {
		l.settle()
	}
}
