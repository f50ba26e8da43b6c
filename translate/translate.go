// Package translate turns Gateway API resources into gwsim's IR, the status a
// conformant controller would write, and findings. It is pure: Translate reads
// an Input value, never a client, and never mutates what it reads. The offline
// controller calls it on the slice of the world one object depends on, and the
// renderer calls it once on the whole world; both get the same answer for the
// same object because every rule here looks only at the Input.
package translate

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/egpolicy"
	"github.com/gwsim/gwsim/translate/ir"
)

// Input is everything Translate may look at. Gateway API objects are in their
// v1 form (the loader converts older versions) and carry their CRDs'
// defaults, as a cluster stores them (see translate_defaults.go). Slices may be in any
// order.
type Input struct {
	GatewayClasses     []*gwv1.GatewayClass
	Gateways           []*gwv1.Gateway
	ListenerSets       []*gwv1.ListenerSet
	HTTPRoutes         []*gwv1.HTTPRoute
	GRPCRoutes         []*gwv1.GRPCRoute
	TLSRoutes          []*gwv1.TLSRoute
	TCPRoutes          []*gwv1.TCPRoute
	UDPRoutes          []*gwv1.UDPRoute
	BackendTLSPolicies []*gwv1.BackendTLSPolicy
	ReferenceGrants    []*gwv1.ReferenceGrant
	Services           []*corev1.Service
	ServiceImports     []*mcsv1alpha1.ServiceImport // multi-cluster backends (GEP-1748)
	EndpointSlices     []*discoveryv1.EndpointSlice // of Services, and of ServiceImports (label multicluster.kubernetes.io/service-name)
	Secrets            []*corev1.Secret
	ConfigMaps         []*corev1.ConfigMap // CA bundles (key ca.crt) that BackendTLSPolicies and frontend validation name
	Namespaces         []*corev1.Namespace
	// Backends are Envoy Gateway Backends, read where a route's profile
	// simulates them (eg_backend.go); elsewhere they are OtherObjects.
	Backends []*egv1a1.Backend
	// HTTPRouteFilters are Envoy Gateway HTTPRouteFilters, applied where a
	// route's profile simulates them (eg_routefilter.go).
	HTTPRouteFilters []*egv1a1.HTTPRouteFilter
	// EnvoyProxies are Envoy Gateway EnvoyProxies, read where a
	// GatewayClass's parametersRef names one (gateway_merge.go).
	EnvoyProxies []*egv1a1.EnvoyProxy
	// The Envoy Gateway policies, whose attachment and status the
	// envoy-gateway profile simulates (translate/egpolicy). Under another
	// profile they are OtherObjects and PolicyAttachments.
	BackendTrafficPolicies []*egv1a1.BackendTrafficPolicy
	ClientTrafficPolicies  []*egv1a1.ClientTrafficPolicy
	SecurityPolicies       []*egv1a1.SecurityPolicy
	EnvoyExtensionPolicies []*egv1a1.EnvoyExtensionPolicy
	EnvoyPatchPolicies     []*egv1a1.EnvoyPatchPolicy
	// OtherObjects are the objects of the input whose kinds Translate does
	// not read (see OtherObject). A parametersRef resolves to one.
	OtherObjects []OtherObject
	// Sources says where each object was loaded from; objects without an
	// entry were assumed or created by a test harness.
	Sources diag.Sources
}

// Options are the controller's settings.
type Options struct {
	// ControllerNames are the controllers gwsim stands in for. Empty means
	// every GatewayClass in the input is gwsim's.
	ControllerNames []string
	// Now stamps lastTransitionTime on every condition. Callers pass a fixed
	// time so that output is deterministic.
	Now metav1.Time
	// Addresses gives the addresses the environment assigns to a Gateway:
	// all of them when the Gateway requests none, and one of the requested
	// type for each spec.addresses entry without a value (an address
	// without a type is an IPAddress). gwsim cannot assign addresses
	// itself, so this is an explicit input rather than something translate
	// makes up. It is nil in the CLI: gwsim assigns none, and assumes that a
	// real environment would fill valueless requests. The conformance
	// harness sets it to give each Gateway a unique IP. When it is set and
	// has no address of a requested type left, the Gateway is
	// Programmed=False with AddressNotAssigned. It must return the same
	// addresses for the same Gateway on every call.
	Addresses func(gateway types.NamespacedName) []gwv1.GatewayStatusAddress
	// AddressUsable says whether the environment can give a Gateway a
	// static address it requests (a spec.addresses entry with a
	// well-formed value): whether the address is free and one the
	// environment can bind. Like Addresses, it is knowledge gwsim cannot
	// have offline, so it is an explicit input. nil (the CLI) assumes every
	// such address usable and says so in an Assumed finding. When it
	// returns false, the address is left out of status.addresses and the
	// Gateway is Programmed=False with AddressNotUsable. The conformance
	// harness sets it to refuse the suite's unusable address pool.
	AddressUsable func(gateway types.NamespacedName, addr gwv1.GatewaySpecAddress) bool
	// OpenWorld says which objects missing from the input are assumed to
	// exist; the zero value assumes none.
	OpenWorld OpenWorld
	// Implementation is the profile chosen for every GatewayClass, or
	// profile.Auto ("" too) to choose per class from its controllerName
	// (see ProfileOf).
	Implementation profile.Name
	// StatusOnly computes Output.Status alone: Output.IR and
	// Output.Findings are left empty, and the IR is built only as far as
	// BackendTLSPolicy status needs it. Input.EndpointSlices are not read:
	// endpoints matter to the IR alone. The reconcilers, which write status
	// and nothing else, translate one Gateway's slice of the world this
	// way; the status is the same as without it.
	StatusOnly bool
}

// Output is what Translate computes.
type Output struct {
	IR       ir.IR
	Status   Status
	Findings []diag.Finding
	// Elsewhere are the HTTP and gRPC routes no Gateway of the input
	// places (see ir.RouteElsewhere), in input order; nil with StatusOnly.
	Elsewhere []ir.RouteElsewhere
	// EGPolicies is where Envoy Gateway's policies attach and the status
	// they get (translate/egpolicy); nil with StatusOnly or when the
	// input holds none.
	EGPolicies *egpolicy.Result
}

// Status holds the status gwsim's controller owns, per object. Objects that
// belong to another controller have no entry.
type Status struct {
	GatewayClasses map[types.NamespacedName]gwv1.GatewayClassStatus
	Gateways       map[types.NamespacedName]gwv1.GatewayStatus
	// ListenerSets holds the status of every ListenerSet whose parentRef
	// names a Gateway of gwsim's in the input.
	ListenerSets map[types.NamespacedName]gwv1.ListenerSetStatus
	// Routes holds, per route, the parent statuses for parentRefs that name a
	// Gateway of gwsim's in the input, or a ListenerSet of one, in
	// parentRefs order.
	Routes map[diag.ObjectRef][]gwv1.RouteParentStatus
	// BackendTLSPolicies holds, per policy, its status.ancestors entries
	// for the Gateways of gwsim in the input that connect to a Service port
	// it targets, sorted by Gateway namespace and name. A policy no such
	// Gateway reaches has no entry.
	BackendTLSPolicies map[types.NamespacedName][]gwv1.PolicyAncestorStatus
	// Backends holds the status of every Envoy Gateway Backend that a
	// backendRef of a route whose profile simulates Backends names (see
	// eg_backendstatus.go).
	Backends map[types.NamespacedName]egv1a1.BackendStatus
}
