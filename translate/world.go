package translate

import (
	"cmp"
	"slices"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// world indexes an Input for lookups by key. It is built once per Translate
// call; nothing in it is mutated afterwards but assumed and clusters.
type world struct {
	in             Input
	opts           Options
	classes        map[string]*gwv1.GatewayClass
	gateways       map[types.NamespacedName]*gwv1.Gateway
	services       map[types.NamespacedName]*corev1.Service
	serviceImports map[types.NamespacedName]*mcsv1alpha1.ServiceImport
	secrets        map[types.NamespacedName]*corev1.Secret
	configMaps     map[types.NamespacedName]*corev1.ConfigMap
	namespaces     map[string]*corev1.Namespace
	egBackends     map[types.NamespacedName]*egv1a1.Backend
	egProxies      map[types.NamespacedName]*egv1a1.EnvoyProxy
	egRouteFilters map[types.NamespacedName]*egv1a1.HTTPRouteFilter
	others         map[OtherObject]bool
	// slicesBySvc holds the EndpointSlices of each Service, slicesByImport
	// those of each ServiceImport: the two label them differently.
	slicesBySvc    map[types.NamespacedName][]*discoveryv1.EndpointSlice
	slicesByImport map[types.NamespacedName][]*discoveryv1.EndpointSlice
	grantsByNS     map[string][]*gwv1.ReferenceGrant
	listenerSets   listenerSetIndex
	ourControllers map[string]bool
	// backendTLS is decided once, after every other index is built.
	backendTLS backendTLSResult
	// assumed collects the objects this call assumed (see OpenWorld). A
	// fork has its own, merged back in input order (see fork).
	assumed *assumptions
	// clusters memoises cluster, a function of the world and a Service
	// port; forks share it. It and assumed are the only fields written
	// after newWorld returns.
	clusters *clusterMemo
}

func newWorld(in Input, opts Options, workers int) *world {
	w := &world{
		in:             in,
		opts:           opts,
		classes:        make(map[string]*gwv1.GatewayClass, len(in.GatewayClasses)),
		gateways:       make(map[types.NamespacedName]*gwv1.Gateway, len(in.Gateways)),
		services:       make(map[types.NamespacedName]*corev1.Service, len(in.Services)),
		serviceImports: make(map[types.NamespacedName]*mcsv1alpha1.ServiceImport, len(in.ServiceImports)),
		secrets:        make(map[types.NamespacedName]*corev1.Secret, len(in.Secrets)),
		configMaps:     make(map[types.NamespacedName]*corev1.ConfigMap, len(in.ConfigMaps)),
		namespaces:     make(map[string]*corev1.Namespace, len(in.Namespaces)),
		slicesBySvc:    make(map[types.NamespacedName][]*discoveryv1.EndpointSlice, len(in.Services)),
		slicesByImport: make(map[types.NamespacedName][]*discoveryv1.EndpointSlice, len(in.ServiceImports)),
		grantsByNS:     make(map[string][]*gwv1.ReferenceGrant),
		assumed:        newAssumptions(),
		clusters:       &clusterMemo{byKey: make(map[clusterMemoKey]*ir.Cluster, len(in.Services)+len(in.ServiceImports))},
	}
	// The EndpointSlices, as many as the Services, are indexed beside
	// everything else.
	fanOut(workers, 2, func(part int) {
		if part == 0 {
			w.indexObjects()
		} else if !opts.StatusOnly { // endpoints matter only to the IR (see buildCluster)
			indexSlices(w.slicesBySvc, in.EndpointSlices, discoveryv1.LabelServiceName)
			indexSlices(w.slicesByImport, in.EndpointSlices, mcsv1alpha1.LabelServiceName)
		}
	})
	w.backendTLS = w.resolveBackendTLSPolicies()
	return w
}

// indexObjects fills every index of w but the EndpointSlices'.
func (w *world) indexObjects() {
	in := &w.in
	for _, c := range in.GatewayClasses {
		w.classes[c.Name] = c
	}
	for _, g := range in.Gateways {
		w.gateways[keyOf(g.Namespace, g.Name)] = g
	}
	for _, s := range in.Services {
		w.services[keyOf(s.Namespace, s.Name)] = s
	}
	for _, si := range in.ServiceImports {
		w.serviceImports[keyOf(si.Namespace, si.Name)] = si
	}
	for _, s := range in.Secrets {
		w.secrets[keyOf(s.Namespace, s.Name)] = s
	}
	for _, c := range in.ConfigMaps {
		w.configMaps[keyOf(c.Namespace, c.Name)] = c
	}
	for _, n := range in.Namespaces {
		w.namespaces[n.Name] = n
	}
	if len(in.Backends) > 0 {
		w.egBackends = make(map[types.NamespacedName]*egv1a1.Backend, len(in.Backends))
		for _, b := range in.Backends {
			w.egBackends[keyOf(b.Namespace, b.Name)] = b
		}
	}
	if len(in.EnvoyProxies) > 0 {
		w.egProxies = make(map[types.NamespacedName]*egv1a1.EnvoyProxy, len(in.EnvoyProxies))
		for _, p := range in.EnvoyProxies {
			w.egProxies[keyOf(p.Namespace, p.Name)] = p
		}
	}
	if len(in.HTTPRouteFilters) > 0 {
		w.egRouteFilters = make(map[types.NamespacedName]*egv1a1.HTTPRouteFilter, len(in.HTTPRouteFilters))
		for _, f := range in.HTTPRouteFilters {
			w.egRouteFilters[keyOf(f.Namespace, f.Name)] = f
		}
	}
	w.others = make(map[OtherObject]bool, len(in.OtherObjects))
	for _, o := range in.OtherObjects {
		w.others[o] = true
	}
	w.listenerSets = indexListenerSets(in.ListenerSets)
	for _, g := range in.ReferenceGrants {
		w.grantsByNS[g.Namespace] = append(w.grantsByNS[g.Namespace], g)
	}
	if len(w.opts.ControllerNames) > 0 {
		w.ourControllers = make(map[string]bool, len(w.opts.ControllerNames))
		for _, n := range w.opts.ControllerNames {
			w.ourControllers[n] = true
		}
	}
}

// fork returns a world for one worker's share of the routes: it shares
// every index of w, and the cluster memo, whose entries are the same
// whichever goroutine builds them first, but records what it assumes on
// its own. What a route assumes depends on the order of the calls (an
// assumed object is described by its first reference; an assumed
// backend's ports are listed as references name them), so the caller
// merges each fork's assumptions into w's in the order of the routes the
// fork translated (assumptions.merge), which gives w what translating
// every route on one goroutine would have given it.
func (w *world) fork() *world {
	f := *w
	f.assumed = newAssumptions()
	return &f
}

// indexSlices adds to m the slices that name an owner in label, by owner
// and then slice name.
func indexSlices(m map[types.NamespacedName][]*discoveryv1.EndpointSlice, all []*discoveryv1.EndpointSlice, label string) {
	for _, es := range all {
		owner := es.Labels[label]
		if owner == "" {
			continue
		}
		k := keyOf(es.Namespace, owner)
		m[k] = append(m[k], es)
	}
	for _, list := range m {
		if len(list) > 1 {
			slices.SortFunc(list, func(a, b *discoveryv1.EndpointSlice) int { return cmp.Compare(a.Name, b.Name) })
		}
	}
}

// isOurs reports whether gwsim stands in for the controller of class c.
func (w *world) isOurs(c *gwv1.GatewayClass) bool {
	return w.ourControllers == nil || w.ourControllers[string(c.Spec.ControllerName)]
}

// ourClass returns the GatewayClass of g when it exists and is gwsim's.
func (w *world) ourClass(g *gwv1.Gateway) (*gwv1.GatewayClass, bool) {
	c, ok := w.classes[string(g.Spec.GatewayClassName)]
	if !ok || !w.isOurs(c) {
		return nil, false
	}
	return c, true
}

func (w *world) source(kind, ns, name string) diag.Source {
	return w.in.Sources.Of(diag.ObjectRef{Kind: kind, Namespace: ns, Name: name})
}

// namespaceLabels returns the labels of namespace ns. A namespace with no
// Namespace object in the input has only the label the API server always
// sets, kubernetes.io/metadata.name.
func (w *world) namespaceLabels(ns string) map[string]string {
	if n, ok := w.namespaces[ns]; ok {
		labels := make(map[string]string, len(n.Labels)+1)
		for k, v := range n.Labels {
			labels[k] = v
		}
		labels[corev1.LabelMetadataName] = ns
		return labels
	}
	return map[string]string{corev1.LabelMetadataName: ns}
}

func keyOf(ns, name string) types.NamespacedName {
	return types.NamespacedName{Namespace: ns, Name: name}
}
