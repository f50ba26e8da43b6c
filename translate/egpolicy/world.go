package egpolicy

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// World is what attachment looks at: the Gateways of Envoy Gateway's
// class that its translator takes (not refused as a whole), their
// ListenerSets, the routes attached to them, and what cross-namespace
// selectors need. Slices may be in any order.
type World struct {
	Gateways     []Gateway
	ListenerSets []ListenerSet
	Routes       []Route
	// NamespaceLabels are the labels of each Namespace, for selectors
	// that pick namespaces by label.
	NamespaceLabels map[string]map[string]string
	// Grants are the ReferenceGrants, which a selector reaching into
	// another namespace needs.
	Grants []*gwv1.ReferenceGrant
	// MergedClasses names the GatewayClasses whose EnvoyProxy merges
	// their Gateways: an EnvoyPatchPolicy then targets the class.
	MergedClasses map[string]bool
	// Refs are the objects a policy's spec may name, which EG checks
	// when it translates the policy (invalid.go); nil checks nothing.
	Refs *Refs
}

// Refs are the Services, Secrets and ConfigMaps of the input.
type Refs struct {
	Services map[types.NamespacedName]*corev1.Service
	Secrets  map[types.NamespacedName]bool
	// SecretData holds each Secret's data (stringData merged in), which
	// an API key authentication reads its keys from.
	SecretData map[types.NamespacedName]map[string]string
	// ConfigMaps holds each ConfigMap's data.
	ConfigMaps map[types.NamespacedName]map[string]string
}

// Object is what a target has in common: identity, labels, age.
type Object struct {
	Namespace, Name string
	Labels          map[string]string
	Created         metav1.Time
}

// Key names the object.
func (o Object) Key() types.NamespacedName {
	return types.NamespacedName{Namespace: o.Namespace, Name: o.Name}
}

// Gateway is a Gateway with the names of its own listeners.
type Gateway struct {
	Object
	Listeners []string
	// Class is its GatewayClass: Gateways of a class in MergedClasses
	// share one Envoy.
	Class string
	// Specs describe Listeners, in the same order.
	Specs []ListenerSpec
	// DynamicModules are the dynamic modules its EnvoyProxy allows.
	DynamicModules []string
}

// ListenerSet is a ListenerSet with its Gateway and listener names.
type ListenerSet struct {
	Object
	Gateway   types.NamespacedName
	Listeners []string
	// Specs describe Listeners, in the same order.
	Specs []ListenerSpec
}

// ListenerSpec is what a ClientTrafficPolicy's translation reads of a
// listener: whether it serves HTTP or terminates TLS, and which port.
type ListenerSpec struct {
	Protocol gwv1.ProtocolType
	Port     gwv1.PortNumber
	Hostname string
	// Terminates is true for an HTTPS listener, and a TLS one in
	// Terminate mode: Envoy holds the TLS settings there.
	Terminates bool
	// Unserved is true for a listener EG does not configure (not
	// Programmed): it shares no port and takes no policy.
	Unserved bool
}

// Route is a route of some kind with its rule names and the parentRefs
// that Envoy Gateway handles: those naming a Gateway of the World or a
// ListenerSet of one (EG's GetManagedParentReferences).
type Route struct {
	Object
	Kind      string
	RuleNames []string
	// Rules is the number of rules, named or not.
	Rules   int
	Parents []Parent
	// Hostnames are an HTTPRoute's or GRPCRoute's hostnames, and Matches
	// the routes Envoy Gateway makes of its rules for each (a rule's
	// matches, one for a rule without any).
	Hostnames []string
	Matches   int
}

// Parent is one handled parentRef of a route.
type Parent struct {
	// Kind is Gateway or ListenerSet.
	Kind            string
	Namespace, Name string
	SectionName     *gwv1.SectionName
	// Listeners are the listeners of the parent the route attaches to
	// through this parentRef, which a merged policy's ancestors name.
	Listeners []string
}

// index is the World by key, built once per Attach.
type index struct {
	w            *World
	gateways     map[types.NamespacedName]*Gateway
	listenerSets map[types.NamespacedName]*ListenerSet
	routes       map[routeKey]*Route
	// now is when a ClientTrafficPolicy's CRLs are judged (Attach's
	// Options.Now); zero skips it.
	now time.Time
}

type routeKey struct {
	kind string
	key  types.NamespacedName
}

func newIndex(w *World) *index {
	x := &index{w: w, gateways: map[types.NamespacedName]*Gateway{}, listenerSets: map[types.NamespacedName]*ListenerSet{}, routes: map[routeKey]*Route{}}
	for i := range w.Gateways {
		x.gateways[w.Gateways[i].Key()] = &w.Gateways[i]
	}
	for i := range w.ListenerSets {
		if ls := &w.ListenerSets[i]; x.gateways[ls.Gateway] != nil {
			x.listenerSets[ls.Key()] = ls
		}
	}
	for i := range w.Routes {
		r := &w.Routes[i]
		x.routes[routeKey{r.Kind, r.Key()}] = r
	}
	return x
}
