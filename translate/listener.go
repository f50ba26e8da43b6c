package translate

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// listenerResult is what gwsim decided about one listener of a Gateway,
// declared by the Gateway itself or by one of its ListenerSets: both go
// through the same evaluation, status and routing.
type listenerResult struct {
	spec  gwv1.Listener
	owner listenerOwner
	// accepted listeners generate data-plane configuration; routes attach
	// only to them.
	accepted bool
	// programmed listeners are accepted and have every reference resolved.
	programmed bool
	kinds      []gwv1.RouteGroupKind
	certs      []string // resolved certificate Secrets, "namespace/name"
	// certNames are the DNS names the resolved certificates cover (their
	// subjectAltNames); empty for Secrets that are assumed, not read.
	certNames []string
	problems  listenerProblems
	// frontend is the client certificate validation of an HTTPS listener
	// (Gateway spec.tls.frontend), nil when none applies.
	frontend *ir.FrontendValidation
	// attachedRoutes counts the routes attached to the listener.
	attachedRoutes int32
	// overlap explains the listener's OverlappingTLSConfig condition; ""
	// when its TLS configuration overlaps no other listener's.
	// overlapReason is OverlappingCertificates or OverlappingHostnames.
	overlap, overlapReason string
	// envoy is set when the Gateway's profile decides listeners as Envoy
	// Gateway does (ListenerChoices.EnvoyListenerRules).
	envoy bool
}

// listenerOwner is the object that declares a listener: the Gateway, or a
// ListenerSet attached to it. allowedRoutes "Same" and certificateRefs are
// relative to its namespace, and ReferenceGrants must allow its kind.
type listenerOwner struct {
	kind            string // "Gateway" or "ListenerSet"
	namespace, name string
}

// id names the listener uniquely on its Gateway. Listener names are unique
// only within the object that declares them (the GEP lets a ListenerSet
// reuse a Gateway listener's name), so a ListenerSet's listener is
// "namespace/listenerset/name"; a Gateway's own listener keeps its name.
func (r *listenerResult) id() string {
	if s := r.listenerSet(); s != "" {
		return s + "/" + string(r.spec.Name)
	}
	return string(r.spec.Name)
}

// listenerSet is "namespace/name" of the ListenerSet that declares the
// listener, or "" for the Gateway's own.
func (r *listenerResult) listenerSet() string {
	if r.owner.kind != "ListenerSet" {
		return ""
	}
	return r.owner.namespace + "/" + r.owner.name
}

// listenerProblems collects why a listener is not fully healthy; each field
// is empty when that aspect is fine.
type listenerProblems struct {
	acceptedReason, acceptedMsg string
	conflictReason, conflictMsg string
	refsReason, refsMsg         string
	// programmedReason is a problem of the listener's own spec that
	// leaves it not Programmed and says nothing on Accepted; frontendReason
	// is a frontend validation whose CA references do not resolve. Only
	// Envoy Gateway's listener rules (eg_listeners.go) set them.
	programmedReason, programmedMsg string
	frontendReason, frontendMsg     string
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
	owner := listenerOwner{kind: "Gateway", namespace: g.Namespace, name: g.Name}
	results := make([]*listenerResult, len(g.Spec.Listeners))
	for i, l := range g.Spec.Listeners {
		results[i] = w.evaluateListener(g, owner, l)
	}
	if w.gatewayProfile(g).Listeners.EnvoyListenerRules {
		envoyMarkConflicts(results)
	} else {
		markConflicts(results)
	}
	for _, r := range results {
		r.settle()
	}
	return results
}

// evaluateListener decides what one listener is on its own: protocol
// support, route kinds and TLS references. Conflicts with other listeners
// are decided by the caller, which knows the set the listener belongs to.
func (w *world) evaluateListener(g *gwv1.Gateway, owner listenerOwner, l gwv1.Listener) *listenerResult {
	r := &listenerResult{spec: l, owner: owner, kinds: []gwv1.RouteGroupKind{}}
	if protocolKinds(l.Protocol) == nil {
		r.problems.acceptedReason = string(gwv1.ListenerReasonUnsupportedProtocol)
		r.problems.acceptedMsg = fmt.Sprintf("protocol %q is not supported; use HTTP, HTTPS, TLS, TCP or UDP", l.Protocol)
		return r
	}
	choices := w.gatewayProfile(g).Listeners
	r.kinds, r.problems.refsReason, r.problems.refsMsg = routeKinds(l, listenerKinds(l, choices))
	if r.envoy = choices.EnvoyListenerRules; r.envoy {
		w.envoyListenerSpec(g, r)
		return r
	}
	if r.problems.refsReason == "" {
		w.resolveCertificates(r)
	}
	w.resolveFrontendValidation(g, r)
	return r
}

// settle derives accepted and programmed once every problem is known.
// Under Envoy Gateway's rules both are whether it ends Programmed, the
// listeners its data plane serves (envoyServed).
func (r *listenerResult) settle() {
	if r.envoy {
		r.accepted = r.envoyServed()
		r.programmed = r.accepted
		return
	}
	r.accepted = r.problems.acceptedReason == "" && r.problems.conflictReason == ""
	r.programmed = r.accepted && r.problems.refsReason == ""
}

// listenerKinds lists the route kinds listener l carries under choices:
// its protocol's (protocolKinds), and TCPRoute first on a TLS listener
// that is not in Passthrough mode when the profile lets it carry them.
func listenerKinds(l gwv1.Listener, choices profile.ListenerChoices) []gwv1.Kind {
	if choices.TLSCarriesTCPRoute && l.Protocol == gwv1.TLSProtocolType && (l.TLS == nil || deref(l.TLS.Mode) != gwv1.TLSModePassthrough) {
		return []gwv1.Kind{"TCPRoute", "TLSRoute"}
	}
	return protocolKinds(l.Protocol)
}

// routeKinds intersects allowedRoutes.kinds with supported, the kinds the
// listener carries (listenerKinds). A kind it cannot carry makes
// ResolvedRefs False with InvalidRouteKinds, and is left out of
// supportedKinds.
//
// Without allowedRoutes.kinds (the CRD has no default for it) the listener
// takes every kind it carries, as the spec says.
func routeKinds(l gwv1.Listener, supported []gwv1.Kind) ([]gwv1.RouteGroupKind, string, string) {
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
		g := string(deref(k.Group)) // the CRD defaults it to gateway.networking.k8s.io
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

// markConflicts applies the spec's "distinct listeners" rule to the
// listeners of one Gateway: every listener that clashes with another (see
// clash) is conflicted, none is picked as the winner. A listener whose port
// is shared with an incompatible protocol gets ProtocolConflict even where
// it is also indistinct from a listener of its own protocol.
func markConflicts(results []*listenerResult) {
	for i, a := range results {
		mixed := false
		for j, b := range results {
			if i == j {
				continue
			}
			reason := clash(a.spec, b.spec)
			switch {
			case reason == "":
			case familyOf(a.spec.Protocol) != familyOf(b.spec.Protocol):
				mixed = true
				a.problems.conflictReason = reason
				a.problems.conflictMsg = fmt.Sprintf("listener %s uses port %d with protocol %s, which cannot share a port with %s; move one of them to another port",
					b.spec.Name, a.spec.Port, b.spec.Protocol, a.spec.Protocol)
			case mixed:
			case reason == string(gwv1.ListenerReasonProtocolConflict):
				a.problems.conflictReason = reason
				a.problems.conflictMsg = fmt.Sprintf("listener %s uses port %d/%s as well, and %s listeners on one port cannot be told apart; move one of them to another port",
					b.spec.Name, a.spec.Port, a.spec.Protocol, a.spec.Protocol)
			default:
				a.problems.conflictReason = reason
				a.problems.conflictMsg = fmt.Sprintf("listener %s uses port %d with hostname %q as well; give one of them another hostname or port",
					b.spec.Name, a.spec.Port, hostnameOf(a.spec.Hostname))
			}
		}
	}
}

// clash returns the reason two listeners cannot both be served, or "".
// Listeners clash only on the same port and transport (TCP and UDP may
// share a port number). HTTP, HTTPS and TLS listeners must differ in
// hostname (HTTPS and TLS may share a port: SNI tells them apart); any
// other mix of protocols on one port is a ProtocolConflict. Two TCP or two
// UDP listeners on one port are indistinct, which gwsim reports as
// ProtocolConflict too (there is no hostname to conflict on). Listeners of
// an unsupported protocol clash with nothing. clash is symmetric.
func clash(a, b gwv1.Listener) string {
	if protocolKinds(a.Protocol) == nil || protocolKinds(b.Protocol) == nil {
		return ""
	}
	if a.Port != b.Port || transportOf(a.Protocol) != transportOf(b.Protocol) {
		return ""
	}
	switch fa := familyOf(a.Protocol); {
	case fa != familyOf(b.Protocol), fa == "tcp", fa == "udp":
		return string(gwv1.ListenerReasonProtocolConflict)
	case hostnameOf(a.Hostname) == hostnameOf(b.Hostname):
		return string(gwv1.ListenerReasonHostnameConflict)
	}
	return ""
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
		programmed = falseCond(string(gwv1.ListenerConditionProgrammed), r.notProgrammedReason(),
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
	return append([]condition{accepted, programmed, refs, conflicted}, r.overlapCondition()...)
}

// notAccepted says why the listener is not accepted and where its status
// is, for the message of a route attached to it that it does not serve;
// "" when it is accepted.
func (r *listenerResult) notAccepted() string {
	reason := firstNonEmpty(r.problems.acceptedReason, r.problems.conflictReason)
	if r.envoy && !r.accepted {
		reason = firstNonEmpty(reason, r.problems.frontendReason, r.problems.programmedReason, r.problems.refsReason)
	}
	if reason == "" {
		return ""
	}
	return fmt.Sprintf("is not accepted (%s); fix it first (see status.listeners[%s] of %s %s/%s)",
		reason, r.spec.Name, r.owner.kind, r.owner.namespace, r.owner.name)
}

// kindList names the route kinds the listener admits (its supportedKinds),
// for messages.
func (r *listenerResult) kindList() string {
	if len(r.kinds) == 0 {
		return "no route kind"
	}
	names := make([]string, len(r.kinds))
	for i, k := range r.kinds {
		names[i] = string(k.Kind)
	}
	return strings.Join(names, ", ")
}

// notProgrammedReason is Invalid, the reason the Listener godoc gives,
// except for a conflicted listener of a ListenerSet: the ListenerSet
// conformance tests (ListenerSetHostnameConflict, ListenerSetProtocolConflict)
// expect the conflict's own reason on its Programmed condition.
func (r *listenerResult) notProgrammedReason() string {
	if r.owner.kind == "ListenerSet" && r.problems.acceptedReason == "" && r.problems.conflictReason != "" {
		return r.problems.conflictReason
	}
	return string(gwv1.ListenerReasonInvalid)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// acceptedByListenerConditions is a Gateway's Accepted as a profile with
// ProblemListenerConditions writes it, from its listeners' Accepted
// conditions: True when every listener has Accepted True, True with
// ListenersNotValid when some do, False with ListenersNotValid when none
// does.
func acceptedByListenerConditions(accepted condition, all, some bool) condition {
	switch {
	case all:
		return accepted
	case some:
		return trueCond(accepted.Type, string(gwv1.GatewayReasonListenersNotValid), "Gateway is accepted, but some listeners are not (see status.listeners)")
	}
	return falseCond(accepted.Type, string(gwv1.GatewayReasonListenersNotValid), "no listener is accepted (see status.listeners)")
}
