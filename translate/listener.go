package translate

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// listenerResult is what gwsim decided about one Gateway listener.
type listenerResult struct {
	spec gwv1.Listener
	// accepted listeners generate data-plane configuration; routes attach
	// only to them.
	accepted bool
	// programmed listeners are accepted and have every reference resolved.
	programmed bool
	kinds      []gwv1.RouteGroupKind
	certs      []string // resolved certificate Secrets, "namespace/name"
	problems   listenerProblems
	// frontend is the client certificate validation of an HTTPS listener
	// (Gateway spec.tls.frontend), nil when none applies.
	frontend *ir.FrontendValidation
}

// listenerProblems collects why a listener is not fully healthy; each field
// is empty when that aspect is fine.
type listenerProblems struct {
	acceptedReason, acceptedMsg string
	conflictReason, conflictMsg string
	refsReason, refsMsg         string
}

// protocolKinds lists the route kinds a listener protocol carries, in the
// order supportedKinds reports them. A nil result means gwsim does not
// support the protocol.
func protocolKinds(p gwv1.ProtocolType) []gwv1.Kind {
	switch p {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
		return []gwv1.Kind{"HTTPRoute", "GRPCRoute"}
	case gwv1.TLSProtocolType:
		return []gwv1.Kind{"TLSRoute"}
	case gwv1.TCPProtocolType:
		return []gwv1.Kind{"TCPRoute"}
	case gwv1.UDPProtocolType:
		return []gwv1.Kind{"UDPRoute"}
	}
	return nil
}

// evaluateListeners decides every listener of g: protocol support, route
// kinds, TLS references and conflicts between listeners sharing a port.
func (w *world) evaluateListeners(g *gwv1.Gateway) []*listenerResult {
	results := make([]*listenerResult, len(g.Spec.Listeners))
	for i, l := range g.Spec.Listeners {
		r := &listenerResult{spec: l, kinds: []gwv1.RouteGroupKind{}}
		if protocolKinds(l.Protocol) == nil {
			r.problems.acceptedReason = string(gwv1.ListenerReasonUnsupportedProtocol)
			r.problems.acceptedMsg = fmt.Sprintf("protocol %q is not supported; use HTTP, HTTPS, TLS, TCP or UDP", l.Protocol)
		} else {
			r.kinds, r.problems.refsReason, r.problems.refsMsg = routeKinds(l)
			if r.problems.refsReason == "" {
				w.resolveCertificates(g, r)
			}
			w.resolveFrontendValidation(g, r)
		}
		results[i] = r
	}
	markConflicts(results)
	for _, r := range results {
		r.accepted = r.problems.acceptedReason == "" && r.problems.conflictReason == ""
		r.programmed = r.accepted && r.problems.refsReason == ""
	}
	return results
}

// routeKinds intersects allowedRoutes.kinds with what the protocol carries.
// A kind the protocol cannot carry makes ResolvedRefs False with
// InvalidRouteKinds, and is left out of supportedKinds.
func routeKinds(l gwv1.Listener) ([]gwv1.RouteGroupKind, string, string) {
	supported := protocolKinds(l.Protocol)
	group := gwv1.Group(gwv1.GroupName)
	if l.AllowedRoutes == nil || len(l.AllowedRoutes.Kinds) == 0 {
		kinds := make([]gwv1.RouteGroupKind, len(supported))
		for i, k := range supported {
			kinds[i] = gwv1.RouteGroupKind{Group: &group, Kind: k}
		}
		return kinds, "", ""
	}
	kinds := []gwv1.RouteGroupKind{}
	var invalid []string
	for _, k := range l.AllowedRoutes.Kinds {
		g := gwv1.GroupName
		if k.Group != nil {
			g = string(*k.Group)
		}
		if g != gwv1.GroupName || !slices.Contains(supported, k.Kind) {
			invalid = append(invalid, g+"/"+string(k.Kind))
			continue
		}
		kinds = append(kinds, gwv1.RouteGroupKind{Group: &group, Kind: k.Kind})
	}
	if len(invalid) > 0 {
		return kinds, string(gwv1.ListenerReasonInvalidRouteKinds),
			fmt.Sprintf("allowedRoutes.kinds %s cannot attach to a %s listener", strings.Join(invalid, ", "), l.Protocol)
	}
	return kinds, "", ""
}

// markConflicts applies the spec's "distinct listeners" rule to listeners
// sharing a port. HTTP, HTTPS and TLS listeners must differ in hostname;
// HTTPS and TLS may share a port (SNI tells them apart); TCP and UDP may share
// a port number (different transports); any other mix on one port is a
// ProtocolConflict for every listener of that transport on it. Two TCP or two
// UDP listeners on one port are indistinct, which gwsim reports as
// ProtocolConflict too (there is no hostname to conflict on).
func markConflicts(results []*listenerResult) {
	type slot struct {
		port      gwv1.PortNumber
		transport string
	}
	bySlot := map[slot][]*listenerResult{}
	for _, r := range results {
		if protocolKinds(r.spec.Protocol) == nil {
			continue
		}
		s := slot{r.spec.Port, transportOf(r.spec.Protocol)}
		bySlot[s] = append(bySlot[s], r)
	}
	for _, group := range bySlot {
		families := map[string]bool{}
		for _, r := range group {
			families[familyOf(r.spec.Protocol)] = true
		}
		if len(families) > 1 {
			for _, r := range group {
				r.problems.conflictReason = string(gwv1.ListenerReasonProtocolConflict)
				r.problems.conflictMsg = fmt.Sprintf("port %d is used with incompatible protocols by several listeners", r.spec.Port)
			}
			continue
		}
		markIndistinct(group)
	}
}

// markIndistinct marks listeners of one protocol family on one port that no
// field tells apart.
func markIndistinct(group []*listenerResult) {
	for i, a := range group {
		for j, b := range group {
			if i == j {
				continue
			}
			switch familyOf(a.spec.Protocol) {
			case "tcp", "udp":
				a.problems.conflictReason = string(gwv1.ListenerReasonProtocolConflict)
				a.problems.conflictMsg = fmt.Sprintf("listener %s uses port %d/%s as well", b.spec.Name, a.spec.Port, a.spec.Protocol)
			default:
				if hostnameOf(a.spec.Hostname) == hostnameOf(b.spec.Hostname) {
					a.problems.conflictReason = string(gwv1.ListenerReasonHostnameConflict)
					a.problems.conflictMsg = fmt.Sprintf("listener %s uses port %d with hostname %q as well",
						b.spec.Name, a.spec.Port, hostnameOf(a.spec.Hostname))
				}
			}
		}
	}
}

func transportOf(p gwv1.ProtocolType) string {
	if p == gwv1.UDPProtocolType {
		return "udp"
	}
	return "tcp"
}

func familyOf(p gwv1.ProtocolType) string {
	switch p {
	case gwv1.HTTPProtocolType:
		return "http"
	case gwv1.HTTPSProtocolType, gwv1.TLSProtocolType:
		return "tls"
	case gwv1.TCPProtocolType:
		return "tcp"
	}
	return "udp"
}

func hostnameOf(h *gwv1.Hostname) string {
	if h == nil {
		return ""
	}
	return string(*h)
}

// conditions declares a listener's conditions in the order status shows them.
func (r *listenerResult) conditions() []condition {
	p := r.problems
	accepted := trueCond(string(gwv1.ListenerConditionAccepted), string(gwv1.ListenerReasonAccepted), "listener is accepted")
	switch {
	case p.acceptedReason != "":
		accepted = falseCond(string(gwv1.ListenerConditionAccepted), p.acceptedReason, p.acceptedMsg)
	case p.conflictReason != "":
		accepted = falseCond(string(gwv1.ListenerConditionAccepted), p.conflictReason, p.conflictMsg)
	}
	programmed := trueCond(string(gwv1.ListenerConditionProgrammed), string(gwv1.ListenerReasonProgrammed), "listener is programmed")
	if !r.programmed {
		programmed = falseCond(string(gwv1.ListenerConditionProgrammed), string(gwv1.ListenerReasonInvalid),
			"listener is not programmed: "+firstNonEmpty(p.acceptedMsg, p.conflictMsg, p.refsMsg))
	}
	refs := trueCond(string(gwv1.ListenerConditionResolvedRefs), string(gwv1.ListenerReasonResolvedRefs), "all references are resolved")
	if p.refsReason != "" {
		refs = falseCond(string(gwv1.ListenerConditionResolvedRefs), p.refsReason, p.refsMsg)
	}
	conflicted := falseCond(string(gwv1.ListenerConditionConflicted), string(gwv1.ListenerReasonNoConflicts), "no conflicts")
	if p.conflictReason != "" {
		conflicted = trueCond(string(gwv1.ListenerConditionConflicted), p.conflictReason, p.conflictMsg)
	}
	return []condition{accepted, programmed, refs, conflicted}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
