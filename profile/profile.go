// Package profile names the implementations whose choices gwsim simulates.
// The Gateway API leaves some behaviour to implementations (which route
// kinds a TLS listener takes, which Secret types hold certificates, how an
// unmatched request is answered) and implementations add kinds of their own
// (Envoy Gateway's Backend and HTTPRouteFilter). A Profile is that set of
// choices and kinds, as data: translate and the offline controller ask the
// profile of a GatewayClass, never an implementation's name, so that every
// vendor rule sits in the profile's own files. docs/implementations.md
// gives the documented or source fact behind each choice.
package profile

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Name names a profile, as --implementation takes it.
type Name string

// The profiles. Auto chooses per GatewayClass from its controllerName.
const (
	Auto         Name = "auto"
	Generic      Name = "generic"
	EnvoyGateway Name = "envoy-gateway"
)

// EnvoyGatewayController is the controllerName of Envoy Gateway's
// GatewayClasses (its default EnvoyGateway config,
// gateway.controllerName): a class naming it gets the envoy-gateway
// profile under Auto.
const EnvoyGatewayController = "gateway.envoyproxy.io/gatewayclass-controller"

// EnvoyGatewayGroup is the API group of Envoy Gateway's own kinds.
const EnvoyGatewayGroup = "gateway.envoyproxy.io"

// The Envoy Gateway kinds the envoy-gateway profile simulates.
var (
	BackendKind         = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "Backend"}
	HTTPRouteFilterKind = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "HTTPRouteFilter"}
	// EnvoyProxyKind is read where a GatewayClass's parametersRef names
	// it: its mergeGateways makes the class's Gateways one data plane.
	EnvoyProxyKind = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "EnvoyProxy"}
)

// Envoy Gateway's policy kinds: their attachment and status.ancestors are
// simulated (translate/egpolicy); what each does to a request is simulated
// field by field, and docs/implementations.md says which.
var (
	BackendTrafficPolicyKind = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "BackendTrafficPolicy"}
	ClientTrafficPolicyKind  = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "ClientTrafficPolicy"}
	SecurityPolicyKind       = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "SecurityPolicy"}
	EnvoyExtensionPolicyKind = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "EnvoyExtensionPolicy"}
	EnvoyPatchPolicyKind     = schema.GroupKind{Group: EnvoyGatewayGroup, Kind: "EnvoyPatchPolicy"}
)

// PolicyKinds are Envoy Gateway's policy kinds, in the order EG's
// translator processes them.
func PolicyKinds() []schema.GroupKind {
	return []schema.GroupKind{ClientTrafficPolicyKind, BackendTrafficPolicyKind, SecurityPolicyKind, EnvoyExtensionPolicyKind, EnvoyPatchPolicyKind}
}

// Parse checks a profile name given by a user; "" is Auto.
func Parse(s string) (Name, error) {
	switch n := Name(s); n {
	case "":
		return Auto, nil
	case Auto, Generic, EnvoyGateway:
		return n, nil
	}
	return "", fmt.Errorf("unknown implementation %q: want %s, %s or %s", s, Auto, Generic, EnvoyGateway)
}

// Profile is what one implementation decides.
type Profile struct {
	Name Name
	// Kinds are the vendor kinds the profile simulates: read, watched,
	// given status and followed by routes. Other vendor kinds stay
	// extension objects that resolve but are not simulated.
	Kinds []schema.GroupKind
	// Status is how the implementation writes status where the spec
	// leaves it open.
	Status StatusChoices
	// Listeners is how the implementation decides listeners where the
	// spec leaves it open.
	Listeners ListenerChoices
}

// ListenerChoices are the points where an implementation decides what a
// listener takes and when a Gateway takes routes. The zero value is the
// generic profile's.
type ListenerChoices struct {
	// TLSCarriesTCPRoute lets a TLS listener that is not in Passthrough
	// mode carry TCPRoutes as well as TLSRoutes (supportedKinds TCPRoute
	// and TLSRoute): the TCP stream is forwarded once TLS is terminated.
	// Generic lets a TLS listener carry TLSRoutes only.
	TLSCarriesTCPRoute bool
	// RoutesIgnoreListenerValidity attaches routes to a Gateway whatever
	// its listeners' conditions: one whose every listener is invalid
	// still takes routes (counted in attachedRoutes, Accepted), though no
	// traffic reaches them. A Gateway refused as a whole (its parameters
	// or an unsupported address type) is left out instead: it gets no
	// listener status, and a route's parentRef naming it no parent
	// status, as does a parentRef naming a ListenerSet that its Gateway
	// does not attach. Generic refuses routes on a Gateway that is not
	// Accepted (NotAllowedByListeners) and writes its listeners' status.
	RoutesIgnoreListenerValidity bool
	// EnvoyListenerRules decides listeners as Envoy Gateway's translator
	// does: each listener's own spec first, where a setting Envoy cannot
	// program (tls on an HTTP, TCP or UDP listener, none on HTTPS or TLS,
	// a hostname on TCP or UDP, a selector that is missing or does not
	// parse, no certificateRefs in Terminate mode) leaves it Programmed
	// False without a word on Accepted, and a listener with some invalid
	// certificateRefs serves with the others
	// (PartiallyInvalidCertificateRef); then conflicts among the
	// listeners whose spec passed, the Gateway's own and its
	// ListenerSets' together: incompatible protocols on a port, then
	// shared hostnames, the Gateway's listener winning over a
	// ListenerSet's and none among its own, then the first TCP (and UDP)
	// listener of a port keeping it. Generic applies the spec's
	// distinct-listeners rule to the Gateway's listeners, without
	// winners, and ListenerSet precedence to the others.
	EnvoyListenerRules bool
	// HTTPAndGRPCShareHostnames serves HTTPRoutes and GRPCRoutes together
	// on one listener hostname, in one virtual host, as Envoy Gateway's
	// translator does (it never compares the two kinds' hostnames).
	// Generic follows the GRPCRoute godoc: of an HTTPRoute and a GRPCRoute
	// whose hostnames intersect on a listener, the older is accepted and
	// the other refused there (NotAllowedByListeners).
	HTTPAndGRPCShareHostnames bool
}

// StatusChoices are the points of status an implementation writes its own
// way. The zero value is what the spec describes in full, the generic
// profile's.
type StatusChoices struct {
	// NoSupportedVersion leaves SupportedVersion off GatewayClasses.
	NoSupportedVersion bool
	// GatewayResolvedRefsForTLSOnly writes a Gateway's ResolvedRefs only
	// when spec.tls is set, and only about the references there: False with
	// InvalidClientCertificateRef (or RefNotPermitted) for the backend
	// client certificate, False with InvalidParameters for a frontend CA
	// certificate, else True. Generic writes it always, and sums up the
	// listeners' references there (ListenersNotResolved).
	GatewayResolvedRefsForTLSOnly bool
	// PolicyAncestorIsParentRef makes a BackendTLSPolicy's ancestors the
	// parentRefs (sectionName and port included) of the routes through
	// which a Gateway reaches the policy's targets, one entry per distinct
	// parentRef. Generic writes one entry per Gateway, as the
	// PolicyAncestorStatus godoc recommends.
	PolicyAncestorIsParentRef bool
	// EnvoyFilterRules checks a rule's filter list as Envoy Gateway's
	// translator does: repeated header modifiers merge, and what Envoy
	// cannot program (the Host header in a header modifier, a second URL
	// rewrite, an ExtensionRef to an unknown kind, ...) makes the rule
	// invalid with UnsupportedValue. Generic applies the spec's rules.
	EnvoyFilterRules bool
	// EnvoyBackendRefs checks backendRefs as Envoy Gateway's translator
	// does, with its reasons: a backendRef filter it cannot apply per
	// backend is UnsupportedRefValue, a group or kind other than Service,
	// ServiceImport and its Backend is InvalidKind, a missing port (on a
	// ServiceImport too) is PortNotSpecified and a port the object lacks
	// PortNotFound. Generic resolves other kinds as an implementation's
	// own, derives a ServiceImport's only port, and says BackendNotFound.
	EnvoyBackendRefs bool
	// UnmetBackendTLSReason is the route's ResolvedRefs reason for a
	// backend whose BackendTLSPolicy cannot be met (no usable CA, an
	// unsupported wellKnownCACertificates). The spec names none; Envoy
	// Gateway says InvalidBackendTLS (route.go, processDestination).
	// Empty means UnsupportedProtocol (generic).
	UnmetBackendTLSReason string
	// EnvoyBackendTLSPolicies reads a BackendTLSPolicy's caCertificateRefs
	// as Envoy Gateway does: a ConfigMap or Secret holds the bundle under
	// ca.crt, else tls.crt, else its only key, unparsed; a
	// ClusterTrustBundle is a CA source too; references of other kinds are
	// passed over (InvalidKind only when none is left); and one reference
	// that cannot be read makes the whole policy NoValidCACertificate
	// (InvalidCACertificateRef). A policy that another takes precedence
	// over on every target it has there gets only Accepted=False
	// (Conflicted) on that ancestor, no ResolvedRefs. Generic wants ca.crt
	// holding PEM certificates that parse, uses the references that do,
	// and writes ResolvedRefs on every ancestor.
	EnvoyBackendTLSPolicies bool
	// CountsRejectedRoutes counts an HTTPRoute whose every rule is invalid
	// (Accepted=False) in the attachedRoutes of the listeners it would
	// attach to, where the AttachedRoutes godoc says routes with
	// Accepted other than True MUST NOT be counted (Envoy Gateway counts
	// the listeners of an HTTPRoute's parent before it looks at Accepted,
	// and those of the other kinds after). Generic follows the godoc.
	CountsRejectedRoutes bool
	// ProblemListenerConditions writes on a listener with a problem only
	// that problem's condition (no Accepted for a conflict on a Gateway's
	// listener), with Programmed False, and takes a Gateway's Accepted from
	// its listeners' Accepted conditions. Generic writes all four
	// conditions on every listener.
	ProblemListenerConditions bool
}

// Simulates reports whether the profile simulates objects of gk.
func (p Profile) Simulates(gk schema.GroupKind) bool {
	return slices.Contains(p.Kinds, gk)
}

// Of returns the profile named n; Auto is Generic here (see For).
func Of(n Name) Profile {
	if n == EnvoyGateway {
		return Profile{Name: EnvoyGateway, Kinds: append([]schema.GroupKind{BackendKind, HTTPRouteFilterKind, EnvoyProxyKind}, PolicyKinds()...), Status: envoyGatewayStatus, Listeners: envoyGatewayListeners}
	}
	return Profile{Name: Generic}
}

// For returns the profile of a GatewayClass with controllerName: the one
// chosen is forced unless it is Auto, which picks envoy-gateway for Envoy
// Gateway's controllerName and generic for any other.
func For(chosen Name, controllerName string) Profile {
	if chosen == Auto || chosen == "" {
		if controllerName == EnvoyGatewayController {
			return Of(EnvoyGateway)
		}
		return Of(Generic)
	}
	return Of(chosen)
}

// AllKinds are the vendor kinds some profile simulates, which the loader
// decodes whatever the profile: which profile applies is only known per
// GatewayClass, after loading.
func AllKinds() []schema.GroupKind {
	return Of(EnvoyGateway).Kinds
}

// envoyGatewayStatus is how Envoy Gateway v1.9.1 writes status
// (docs/implementations.md gives the source of each).
var envoyGatewayStatus = StatusChoices{
	NoSupportedVersion:            true,
	GatewayResolvedRefsForTLSOnly: true,
	PolicyAncestorIsParentRef:     true,
	EnvoyFilterRules:              true,
	EnvoyBackendRefs:              true,
	UnmetBackendTLSReason:         "InvalidBackendTLS",
	EnvoyBackendTLSPolicies:       true,
	CountsRejectedRoutes:          true,
	ProblemListenerConditions:     true,
}

// envoyGatewayListeners is how Envoy Gateway v1.9.1 decides listeners
// (docs/implementations.md gives the source of each).
var envoyGatewayListeners = ListenerChoices{
	TLSCarriesTCPRoute:           true,
	RoutesIgnoreListenerValidity: true,
	EnvoyListenerRules:           true,
	HTTPAndGRPCShareHostnames:    true,
}
