package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// backendResult is one resolved backendRef: a weighted backend for the IR,
// the cluster it names when valid, and the ResolvedRefs reason when not.
type backendResult struct {
	backend ir.WeightedBackend
	cluster *ir.Cluster
	reason  string
	message string
}

// resolveBackend applies the spec's backendRef rules: gwsim routes to
// core Services and to ServiceImports (backend_object.go), to the vendor
// backends the route's implementation profile simulates (eg_backend.go),
// and resolves other kinds as an implementation's own (rule_extension.go); a reference into
// another namespace needs a ReferenceGrant there (RefNotPermitted), the
// object and its port must exist (BackendNotFound), and the port's
// appProtocol must be one the route can use (UnsupportedProtocol, see
// unsupportedAppProtocol).
func (w *world) resolveBackend(r routeInfo, ref gwv1.BackendRef, field string) backendResult {
	// The CRD defaults weight to 1 and group and kind to a core Service's;
	// the loader applies it.
	weight := deref(ref.Weight)
	group, kind := string(deref(ref.Group)), string(deref(ref.Kind))
	ns := r.meta.Namespace
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	invalid := func(reason, msg string) backendResult {
		return backendResult{
			backend: ir.WeightedBackend{Weight: weight, Invalid: reason, Ref: backendRefName(group, kind, ns+"/"+string(ref.Name), ref.Port)},
			reason:  reason,
			message: fmt.Sprintf("%s: %s", field, msg),
		}
	}
	p := w.routeProfile(r)
	if p.Status.EnvoyBackendRefs {
		if msg := egBackendKindProblem(group, kind); msg != "" {
			return invalid(string(gwv1.RouteReasonInvalidKind), fmt.Sprintf("%s %s/%s: %s", qualifiedKind(group, kind), ns, ref.Name, msg))
		}
	}
	if simulatedBackend(p, group, kind) {
		return w.resolveEGBackend(r, ref, ns, field, weight)
	}
	key, ok := backendKeyOf(group, kind, ns, string(ref.Name))
	if !ok || w.otherVersionOnly(key) {
		return w.resolveExtensionBackend(r, ref, group, kind, ns, field, weight)
	}
	if !w.allowedByGrant(grantRef{Group: gwv1.GroupName, Kind: string(r.kind), Namespace: r.meta.Namespace},
		grantRef{Group: group, Kind: kind, Namespace: ns, Name: string(ref.Name)}) {
		return invalid(string(gwv1.RouteReasonRefNotPermitted),
			fmt.Sprintf("%s is in another namespace and no ReferenceGrant in %s allows %s from %s", key, ns, r.kind, r.meta.Namespace))
	}
	if ref.Port == nil && (key.Kind != serviceImportKind || p.Status.EnvoyBackendRefs) {
		return invalid(portReason(p, string(gwv1.RouteReasonBackendNotFound), egReasonPortNotSpecified), fmt.Sprintf("backendRef to %s needs a port", key))
	}
	obj, inInput := w.inputBackend(key)
	if svc, ok := obj.src.(*corev1.Service); ok && svc.Spec.Type == corev1.ServiceTypeExternalName {
		// The BackendObjectReference godoc: implementations SHOULD NOT
		// support ExternalName Services, a CNAME that may lead anywhere,
		// inside the cluster too. Envoy Gateway refuses them the same way.
		return invalid(string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf(
			"%s is of type ExternalName (%q); Gateway API implementations should not forward to one (%s: its CNAME may lead to hosts the route's owner could not reach otherwise), so gwsim does not",
			key, svc.Spec.ExternalName, diag.MarkerExternalName))
	}
	port, msg := backendPort(obj, inInput, ref.Port)
	if msg != "" {
		return invalid(string(gwv1.RouteReasonBackendNotFound), fmt.Sprintf("backendRef to %s %s", key, msg))
	}
	ok = inInput
	if !ok {
		obj, ok = w.assumeBackend(key, port, r.kind, r.ref(), field)
	}
	if !ok {
		return invalid(string(gwv1.RouteReasonBackendNotFound), fmt.Sprintf("%s does not exist", key))
	}
	i := servicePortIndex(obj.ports, port, r.kind)
	if i < 0 {
		return invalid(portReason(p, string(gwv1.RouteReasonBackendNotFound), egReasonPortNotFound), fmt.Sprintf("%s has no %s %d", key, portNoun(r.kind), port))
	}
	c := w.cluster(obj, i)
	if msg := unsupportedAppProtocol(c.Protocol, r.kind, c.TLS != nil); msg != "" {
		return invalid(string(gwv1.RouteReasonUnsupportedProtocol), fmt.Sprintf("%s %s %d: %s", key, portNoun(r.kind), port, msg))
	}
	return backendResult{backend: ir.WeightedBackend{Cluster: c.Name, Weight: weight}, cluster: c}
}

// useBackend programs a backend that resolved, for every route kind: its
// cluster joins the route's, a BackendTLSPolicy gwsim cannot meet is
// recorded for ResolvedRefs, and a NoReadyEndpoints finding says when the
// input shows it has no ready endpoint. It returns the weight it takes.
func (w *world) useBackend(res *routeResult, b backendResult, field string) int32 {
	res.clusters = append(res.clusters, b.cluster)
	if c := b.cluster; c != nil && c.TLS != nil && c.TLS.Invalid != "" {
		u, _ := unmetBackendTLS(b, field, w.routeProfile(res.info).Status.UnmetBackendTLSReason)
		res.unmetTLS = append(res.unmetTLS, u)
	}
	if f, ok := w.noReadyEndpointsFinding(res.info, b, field); ok {
		res.findings = append(res.findings, f)
	}
	return b.backend.Weight
}

// noUsableBackend says why a rule whose backends take no traffic (their
// usable weights sum to 0) sends every request or connection nowhere.
func noUsableBackend(refs int) string {
	if refs == 0 {
		return "no backendRefs"
	}
	return "no valid backend with a weight above 0"
}

// backendPort is the port a backendRef reaches. A Service needs the
// backendRef's port; for a ServiceImport the BackendObjectReference godoc
// lets the port be derived from the referent, so a backendRef without one
// takes the ServiceImport's only port. With several ports there is nothing
// to derive it from (msg says so); a ServiceImport that is not in the input
// is assumed to have one port, which gwsim cannot number: it is 0 in the IR.
func backendPort(obj backendObject, inInput bool, refPort *gwv1.PortNumber) (port int32, msg string) {
	switch {
	case refPort != nil:
		return int32(*refPort), ""
	case !inInput:
		return 0, ""
	case len(obj.ports) == 1:
		return obj.ports[0].Port, ""
	default:
		return 0, fmt.Sprintf("has no port, and %s has %d ports to derive one from; name one in the backendRef", obj.key, len(obj.ports))
	}
}

// backendRefName renders a backendRef for WeightedBackend.Ref.
func backendRefName(group, kind, name string, port *gwv1.PortNumber) string {
	out := name
	if port != nil {
		out += fmt.Sprintf(":%d", *port)
	}
	if group != "" || kind != "Service" {
		out = qualifiedKind(group, kind) + " " + out
	}
	return out
}

func qualifiedKind(group, kind string) string {
	if group == "" {
		return kind
	}
	return group + "/" + kind
}

// cluster builds the cluster of one port of a Service or ServiceImport,
// with the ready endpoints of the object's EndpointSlices on the port that
// the object's port maps to (matched by port name, as kube-proxy does),
// and the BackendTLSPolicy settings that apply to the port.
//
// Every backendRef to the same port gets the same cluster, so it is built
// once per Translate (see world.clusters) and shared: nothing modifies a
// cluster once built.
func (w *world) cluster(obj backendObject, port int) *ir.Cluster {
	mk := clusterMemoKey{obj.src, port}
	if c, ok := w.clusters.get(mk); ok {
		return c
	}
	return w.clusters.put(mk, w.buildCluster(obj.key, obj.ports[port]))
}

// clusterMemo holds the clusters built so far, for every worker of one
// Translate. Two workers may build the same cluster at once; the first
// to store it wins, and both use that one, so that every route that
// forwards to a port shares one cluster (and one copy of its endpoints).
type clusterMemo struct {
	mu    sync.Mutex
	byKey map[clusterMemoKey]*ir.Cluster
}

func (m *clusterMemo) get(k clusterMemoKey) (*ir.Cluster, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.byKey[k]
	return c, ok
}

// put stores c under k unless a cluster is stored there already, and
// returns the one stored.
func (m *clusterMemo) put(k clusterMemoKey, c *ir.Cluster) *ir.Cluster {
	m.mu.Lock()
	defer m.mu.Unlock()
	if prev, ok := m.byKey[k]; ok {
		return prev
	}
	m.byKey[k] = c
	return c
}

// clusterMemoKey names a port of a Service or ServiceImport by the object
// (backendObject.src) and the port's index in its ports: an object's
// existing ports never change (an assumed one only gains ports), so the
// index says which port it is.
type clusterMemoKey struct {
	object any
	port   int
}

func (w *world) buildCluster(key backendKey, port corev1.ServicePort) *ir.Cluster {
	name, service := clusterName(key, port)
	c := &ir.Cluster{
		Name:    name,
		Kind:    key.Kind,
		Service: service,
		Port:    port.Port,
	}
	if key.Kind == serviceImportKind {
		c.Address = clusterSetAddress(key)
	}
	if port.AppProtocol != nil {
		c.Protocol = *port.AppProtocol
	}
	c.TLS = w.backendTLS.forPort(key, port)
	if w.opts.StatusOnly {
		return c // endpoints only matter to the IR and to findings
	}
	owned := w.slicesOf(key)
	for _, es := range owned {
		target, ok := slicePort(es, port.Name)
		if !ok {
			continue
		}
		for _, ep := range es.Endpoints {
			if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			for _, addr := range ep.Addresses {
				c.Endpoints = append(c.Endpoints, ir.Endpoint{Address: addr, Port: target})
			}
		}
	}
	slices.SortFunc(c.Endpoints, func(a, b ir.Endpoint) int {
		return cmp.Or(cmp.Compare(a.Address, b.Address), cmp.Compare(a.Port, b.Port))
	})
	c.Endpoints = slices.Compact(c.Endpoints)
	c.NoReadyEndpoints = len(c.Endpoints) == 0 && len(owned) > 0
	return c
}

// clusterName names the cluster of a Service port: "ns/name:port", with
// the protocol appended when it is not TCP (DNS serves port 53 over TCP
// and UDP). A ServiceImport's clusters carry its group/Kind first, as
// other kinds' do, since a Service and the ServiceImport of its ClusterSet
// usually share namespace and name.
// It also returns the object's "ns/name", which the name holds: the two
// share their bytes.
func clusterName(key backendKey, port corev1.ServicePort) (name, object string) {
	var kind, proto string
	if key.Kind != "" {
		kind = key.Kind + "/"
	}
	if port.Protocol != "" && port.Protocol != corev1.ProtocolTCP {
		proto = "/" + string(port.Protocol)
	}
	name = kind + key.Namespace + "/" + key.Name + ":" + strconv.Itoa(int(port.Port)) + proto
	return name, name[len(kind) : len(kind)+len(key.Namespace)+1+len(key.Name)]
}

// slicePort finds the port of an EndpointSlice that serves the Service port
// named name ("" for an unnamed Service port).
func slicePort(es *discoveryv1.EndpointSlice, name string) (int32, bool) {
	for _, p := range es.Ports {
		pname := ""
		if p.Name != nil {
			pname = *p.Name
		}
		if pname == name && p.Port != nil {
			return *p.Port, true
		}
	}
	return 0, false
}
