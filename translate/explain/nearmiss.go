package explain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/evaluate"
)

// nearMisses lists everything that could have taken a request nothing
// took: the listeners on the port that do not cover it, listeners and
// Gateways that are not ready or not on the port, and, for every parentRef
// of every route that concerns the request's Gateway, the conditions its
// nearest rule and match failed. Nearest first: fewest failed conditions,
// then by object.
func (w *world) nearMisses(s *scene) []NearMiss {
	var out []NearMiss
	if s.gw == nil && s.req.Gateway != "" {
		if _, ok := w.gateways[gatewayKey(s.req.Gateway)]; !ok {
			out = append(out, NearMiss{Object: w.gatewayRef(s.req.Gateway), Failed: []Miss{{
				Condition: CondGateway, Message: fmt.Sprintf("Gateway %s is not in the input", s.req.Gateway)}}})
		}
	}
	out = append(out, w.listenerHostnameMisses(s)...)
	for _, g := range w.concernedGateways(s) {
		out = append(out, w.gatewayMisses(s, g)...)
	}
	for _, r := range w.routes {
		for i := range r.parentRefs {
			if m, ok := w.routeMiss(s, r, i); ok {
				out = append(out, m)
			}
		}
	}
	out = append(out, w.noParentMisses(s)...)
	out = append(out, w.leftOutMisses(httpKinds)...)
	slices.SortStableFunc(out, compareNearMisses)
	return out
}

// compareNearMisses ranks as a person reading the request would: a miss
// that fails only on what the request asks for (path, method, headers,
// query) before one that is placed elsewhere (another hostname, listener,
// port, Gateway, or not attached), whatever the counts; then by failed
// conditions; among equals, a miss about the listener or port that took
// the request before one about another listener or port.
func compareNearMisses(a, b NearMiss) int {
	return cmp.Or(
		cmp.Compare(placedElsewhere(a), placedElsewhere(b)),
		cmp.Compare(len(a.Failed), len(b.Failed)),
		cmp.Compare(elsewhere(a), elsewhere(b)),
		cmp.Compare(a.Object.Kind, b.Object.Kind),
		cmp.Compare(a.Object.Namespace, b.Object.Namespace),
		cmp.Compare(a.Object.Name, b.Object.Name),
		comparePtr(a.ParentRef, b.ParentRef),
		cmp.Compare(a.Listener, b.Listener),
	)
}

// placedElsewhere counts the failed conditions that are about where the route
// is rather than what it matches.
func placedElsewhere(m NearMiss) int {
	n := 0
	for _, f := range m.Failed {
		switch f.Condition {
		case CondPath, CondMethod, CondHeader, CondQueryParam:
		default:
			n++
		}
	}
	return n
}

// elsewhere counts the failed conditions that put a miss on another
// listener or port than the request's.
func elsewhere(m NearMiss) int {
	n := 0
	for _, f := range m.Failed {
		if f.Condition == CondListener || f.Condition == CondPort || f.Condition == CondAddress {
			n++
		}
	}
	return n
}

func comparePtr(a, b *int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}

// listenerHostnameMisses are the listeners on the request's port whose
// hostname does not cover it.
func (w *world) listenerHostnameMisses(s *scene) []NearMiss {
	if s.port == nil {
		return nil
	}
	what := "host"
	if s.req.SNI != "" && hasHTTPS(s.port) {
		what = "SNI"
	}
	var out []NearMiss
	for _, l := range s.port.Listeners {
		if l.Hostname == "" || evaluate.HostMatches(l.Hostname, s.host) {
			continue
		}
		out = append(out, NearMiss{Object: w.listenerOwner(s.gw.Name, l), Listener: l.Name, Failed: []Miss{{
			Condition: CondListenerHostname,
			Message:   fmt.Sprintf("listener %s (%d/%s) has hostname %s, which does not cover %s %s", l.Name, s.port.Port, l.Protocol, l.Hostname, what, s.host),
		}}})
	}
	return out
}

// concernedGateways are the Gateways whose listeners and routes an
// explanation looks at: the one that took the port, else the one asked
// for, else every Gateway in the input.
func (w *world) concernedGateways(s *scene) []*gwv1.Gateway {
	var out []*gwv1.Gateway
	for _, g := range w.in.Gateways {
		if s.concerns(types.NamespacedName{Namespace: g.Namespace, Name: g.Name}.String()) {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b *gwv1.Gateway) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// concerns reports whether the Gateway "namespace/name" is one the
// request may reach.
func (s *scene) concerns(gateway string) bool {
	switch {
	case s.gw != nil:
		return gateway == s.gw.Name
	case s.req.Gateway != "":
		return gateway == s.req.Gateway
	}
	return true
}

// gatewayMisses explains why a Gateway does not take the request's port:
// it is not gwsim's or not accepted (only when no Gateway took the port),
// it has no listener on the port, or its listeners on the port are not
// ready.
func (w *world) gatewayMisses(s *scene, g *gwv1.Gateway) []NearMiss {
	key := types.NamespacedName{Namespace: g.Namespace, Name: g.Name}
	ref := w.objectRef("Gateway", g.Namespace, g.Name)
	if s.gw == nil {
		if m := w.gatewayProblem(key); m != nil {
			return []NearMiss{{Object: ref, Failed: []Miss{*m}}}
		}
	}
	if s.noAddress {
		return []NearMiss{{Object: ref, Failed: []Miss{{Condition: CondAddress,
			Message: fmt.Sprintf("Gateway %s has %s, not %s", key, w.describeAddresses(g), s.req.Address)}}}}
	}
	var onPort []string
	for _, l := range g.Spec.Listeners {
		if l.Port == s.req.Port {
			onPort = append(onPort, string(l.Name))
		}
	}
	if len(onPort) == 0 {
		return []NearMiss{{Object: ref, Failed: []Miss{{Condition: CondPort,
			Message: fmt.Sprintf("Gateway %s listens on %s, not on %d", key, describePorts(g.Spec.Listeners), s.req.Port)}}}}
	}
	var out []NearMiss
	for _, name := range onPort {
		if w.programmed(key.String(), s.req.Port, name) {
			continue
		}
		reason, msg := listenerProblem(w.in.Status.Gateways[key], name)
		out = append(out, NearMiss{Object: ref, Listener: name, Failed: []Miss{{Condition: CondListener, Reason: reason,
			Message: fmt.Sprintf("listener %s (port %d) is not in the data plane: %s", name, s.req.Port, msg)}}})
	}
	return out
}

// describeAddresses lists the addresses a Gateway has in its spec and
// status.
func (w *world) describeAddresses(g *gwv1.Gateway) string {
	var addrs []string
	for _, a := range g.Spec.Addresses {
		if a.Value != "" && !slices.Contains(addrs, a.Value) {
			addrs = append(addrs, a.Value)
		}
	}
	for _, a := range w.in.Status.Gateways[types.NamespacedName{Namespace: g.Namespace, Name: g.Name}].Addresses {
		if !slices.Contains(addrs, a.Value) {
			addrs = append(addrs, a.Value)
		}
	}
	if len(addrs) == 0 {
		return "no address in spec.addresses or status.addresses"
	}
	return "address " + strings.Join(addrs, ", ")
}

// describePorts renders a Gateway's listeners by port: "port 80
// (listeners http, org) and 8080 (listener admin)".
func describePorts(ls []gwv1.Listener) string {
	var ports []gwv1.PortNumber
	names := map[gwv1.PortNumber][]string{}
	for _, l := range ls {
		if _, ok := names[l.Port]; !ok {
			ports = append(ports, l.Port)
		}
		names[l.Port] = append(names[l.Port], string(l.Name))
	}
	slices.Sort(ports)
	parts := make([]string, len(ports))
	for i, p := range ports {
		noun := "listener"
		if len(names[p]) > 1 {
			noun = "listeners"
		}
		parts[i] = fmt.Sprintf("%d (%s %s)", p, noun, strings.Join(names[p], ", "))
	}
	if len(parts) == 1 {
		return "port " + parts[0]
	}
	return "ports " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// gatewayProblem says why a Gateway takes no traffic at all: it is not
// gwsim's, or it is not accepted. nil when it is accepted.
func (w *world) gatewayProblem(key types.NamespacedName) *Miss {
	st, ok := w.in.Status.Gateways[key]
	if !ok {
		return &Miss{Condition: CondGateway, Message: fmt.Sprintf("Gateway %s is not gwsim's: its GatewayClass names another controller", key)}
	}
	if c := meta.FindStatusCondition(st.Conditions, string(gwv1.GatewayConditionAccepted)); c != nil && c.Status != metav1.ConditionTrue {
		return &Miss{Condition: CondGateway, Reason: c.Reason, Message: fmt.Sprintf("Gateway %s is not accepted (%s): %s", key, c.Reason, c.Message)}
	}
	return nil
}

// programmed reports whether the Gateway's own listener name is on the
// port in the IR.
func (w *world) programmed(gateway string, port int32, name string) bool {
	g := w.irGateway(gateway)
	if g == nil {
		return false
	}
	for _, p := range g.Listeners {
		if p.Port != port {
			continue
		}
		for _, l := range p.Listeners {
			if l.ListenerSet == "" && l.Name == name {
				return true
			}
		}
	}
	return false
}

// listenerProblem returns the first unhealthy condition of a listener's
// status: why it is left out of the data plane.
func listenerProblem(st gwv1.GatewayStatus, name string) (string, string) {
	for _, l := range st.Listeners {
		if string(l.Name) != name {
			continue
		}
		for _, c := range l.Conditions {
			bad := c.Status == metav1.ConditionFalse
			if c.Type == string(gwv1.ListenerConditionConflicted) {
				bad = c.Status == metav1.ConditionTrue
			}
			if bad {
				return c.Reason, fmt.Sprintf("%s=%s (%s): %s", c.Type, c.Status, c.Reason, c.Message)
			}
		}
	}
	return "", "its Gateway is not programmed"
}
