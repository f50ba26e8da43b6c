package translate

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/graph"
	"github.com/gwsim/gwsim/translate/ir"
)

// BuildGraph draws in as out resolved it (see package graph); out must be
// Translate's output for in (the controller's options only decide which
// objects have status, which out already says). It reads nothing the controller did
// not decide: Gateways and ListenerSets of gwsim's (those with status) and
// their listeners, the routes with a status entry, the attachments and
// backends the IR holds, the problems status conditions report, the
// BackendTLSPolicy the IR applies to each cluster, and the ReferenceGrant
// that permits each cross-namespace backend.
func BuildGraph(in Input, out Output) graph.Graph {
	b := &graphBuilder{w: newWorld(in, Options{}, 1), nodes: map[string]graph.Node{}, edges: map[graph.Edge]bool{}, attached: map[string][]string{}}
	b.gateways(in.Gateways, out.Status)
	b.listenerSets(in.ListenerSets, out.Status)
	b.routesFromIR(out.IR)
	b.routeProblems(out.Status.Routes)
	b.policies(in.BackendTLSPolicies, out)
	b.egPolicies(out)
	return b.graph()
}

// graphBuilder collects nodes and edges; edges are keyed by their whole
// value, so the same relation found twice is drawn once.
type graphBuilder struct {
	w     *world
	nodes map[string]graph.Node
	edges map[graph.Edge]bool
	// attached lists, per route node and Gateway ("route|ns/gw"), the
	// listener nodes the IR serves the route on.
	attached map[string][]string
	clusters map[string]ir.Cluster
}

func gatewayNodeID(key string) string { return graph.KindGateway + "/" + key }
func listenerNodeID(gateway, listener string) string {
	return graph.KindListener + "/" + gateway + "/" + listener
}

func (b *graphBuilder) node(n graph.Node) string {
	if _, ok := b.nodes[n.ID]; !ok {
		b.nodes[n.ID] = n
	}
	return n.ID
}

func (b *graphBuilder) edge(e graph.Edge) { b.edges[e] = true }

// problemOf renders the telling unhealthy condition, as check reports it.
func problemOf(conds []metav1.Condition) string {
	c := firstUnhealthy(conds)
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason)
}

func listenerConditions(statuses []gwv1.ListenerStatus, name gwv1.SectionName) []metav1.Condition {
	for _, s := range statuses {
		if s.Name == name {
			return s.Conditions
		}
	}
	return nil
}

func listenerDetail(port gwv1.PortNumber, protocol gwv1.ProtocolType, host *gwv1.Hostname) string {
	d := fmt.Sprintf("%d/%s", port, protocol)
	if host != nil {
		d += " " + string(*host)
	}
	return d
}

// gateways adds gwsim's Gateways and their listeners.
func (b *graphBuilder) gateways(gws []*gwv1.Gateway, status Status) {
	for _, g := range gws {
		st, ok := status.Gateways[keyOf(g.Namespace, g.Name)]
		if !ok {
			continue
		}
		key := g.Namespace + "/" + g.Name
		gw := b.node(graph.Node{ID: gatewayNodeID(key), Kind: graph.KindGateway, Name: key, Problem: problemOf(st.Conditions)})
		for _, l := range g.Spec.Listeners {
			id := b.node(graph.Node{ID: listenerNodeID(key, string(l.Name)), Kind: graph.KindListener, Name: string(l.Name),
				Detail: listenerDetail(l.Port, l.Protocol, l.Hostname)})
			b.edge(graph.Edge{From: gw, To: id, Kind: graph.EdgeListener, Problem: problemOf(listenerConditions(st.Listeners, l.Name))})
		}
	}
}

// listenerSets adds the ListenerSets whose Gateway is gwsim's, between the
// Gateway and their listeners.
func (b *graphBuilder) listenerSets(sets []*gwv1.ListenerSet, status Status) {
	for _, ls := range sets {
		st, ok := status.ListenerSets[keyOf(ls.Namespace, ls.Name)]
		parent, isGateway := parentGateway(ls)
		if !ok || !isGateway {
			continue
		}
		gwKey := parent.Namespace + "/" + parent.Name
		key := ls.Namespace + "/" + ls.Name
		id := b.node(graph.Node{ID: graph.KindListenerSet + "/" + key, Kind: graph.KindListenerSet, Name: key})
		gw := b.node(graph.Node{ID: gatewayNodeID(gwKey), Kind: graph.KindGateway, Name: gwKey})
		b.edge(graph.Edge{From: gw, To: id, Kind: graph.EdgeListener, Problem: problemOf(st.Conditions)})
		for _, l := range ls.Spec.Listeners {
			lid := b.node(graph.Node{ID: listenerNodeID(gwKey, key+"/"+string(l.Name)), Kind: graph.KindListener, Name: string(l.Name),
				Detail: listenerDetail(l.Port, l.Protocol, l.Hostname)})
			var conds []metav1.Condition
			for _, s := range st.Listeners {
				if s.Name == l.Name {
					conds = s.Conditions
				}
			}
			b.edge(graph.Edge{From: id, To: lid, Kind: graph.EdgeListener, Problem: problemOf(conds)})
		}
	}
}

func routeNodeID(o ir.Origin) string { return o.Kind + "/" + o.Namespace + "/" + o.Name }

// routesFromIR adds what the IR serves: each route on the listeners it is
// attached to, and the backends it forwards to.
func (b *graphBuilder) routesFromIR(model ir.IR) {
	b.clusters = map[string]ir.Cluster{}
	for _, gw := range model.Gateways {
		for _, c := range gw.Clusters {
			b.clusters[c.Name] = c
		}
	}
	for _, gw := range model.Gateways {
		for _, l := range gw.Listeners {
			for _, vh := range l.VirtualHosts {
				for _, r := range vh.Routes {
					b.servedRoute(gw.Name, vh.Listener, r.Origin, r.Action.Backends)
				}
			}
			for _, r := range append(slices.Clone(l.TLSRoutes), l.Forward...) {
				b.servedRoute(gw.Name, r.Listener, r.Origin, r.Backends)
			}
		}
	}
}

func (b *graphBuilder) servedRoute(gateway, listener string, o ir.Origin, backends []ir.WeightedBackend) {
	route := b.node(graph.Node{ID: routeNodeID(o), Kind: o.Kind, Name: o.Namespace + "/" + o.Name})
	lid := b.node(graph.Node{ID: listenerNodeID(gateway, listener), Kind: graph.KindListener, Name: listener})
	b.edge(graph.Edge{From: lid, To: route, Kind: graph.EdgeAttach})
	key := route + "|" + gateway
	if !slices.Contains(b.attached[key], lid) {
		b.attached[key] = append(b.attached[key], lid)
	}
	for _, be := range backends {
		name := be.Cluster
		if name == "" {
			name = be.Ref
		}
		id := b.node(graph.Node{ID: graph.KindBackend + "/" + name, Kind: graph.KindBackend, Name: name})
		b.edge(graph.Edge{From: route, To: id, Kind: graph.EdgeBackend, Problem: be.Invalid})
		b.grantFor(o, id, be)
	}
}

// grantFor adds the ReferenceGrant that lets route o use a valid backend
// in another namespace.
func (b *graphBuilder) grantFor(o ir.Origin, backend string, be ir.WeightedBackend) {
	c, ok := b.clusters[be.Cluster]
	ns, svc, _ := strings.Cut(c.Service, "/")
	if !ok || be.Invalid != "" || ns == o.Namespace {
		return
	}
	to := grantRef{Kind: "Service", Namespace: ns, Name: svc}
	if c.Kind != "" {
		to.Group, to.Kind, _ = strings.Cut(c.Kind, "/") // group/Kind
	}
	g := b.w.grantFor(grantRef{Group: gwv1.GroupName, Kind: o.Kind, Namespace: o.Namespace}, to)
	if g == nil {
		return
	}
	key := g.Namespace + "/" + g.Name
	id := b.node(graph.Node{ID: graph.KindReferenceGrant + "/" + key, Kind: graph.KindReferenceGrant, Name: key})
	b.edge(graph.Edge{From: id, To: backend, Kind: graph.EdgeGrant, Label: fmt.Sprintf("permits %s from %s", o.Kind, o.Namespace)})
}

// routeProblems adds every route with a status entry and marks the
// attachments its unhealthy parents report: on the listeners the IR
// serves it on for that parent, or from the parent itself when the route
// is attached to none of them.
func (b *graphBuilder) routeProblems(routes map[diag.ObjectRef][]gwv1.RouteParentStatus) {
	for _, ref := range slices.SortedFunc(maps.Keys(routes), diag.ObjectRef.Compare) {
		route := b.node(graph.Node{ID: routeNodeID(ir.Origin{Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}),
			Kind: ref.Kind, Name: ref.Namespace + "/" + ref.Name})
		for _, p := range routes[ref] {
			problem := problemOf(p.Conditions)
			if problem == "" {
				continue
			}
			from, served := b.parentNodes(route, ref.Namespace, p.ParentRef)
			for _, lid := range served {
				delete(b.edges, graph.Edge{From: lid, To: route, Kind: graph.EdgeAttach})
				b.edge(graph.Edge{From: lid, To: route, Kind: graph.EdgeAttach, Problem: problem})
			}
			if len(served) == 0 {
				b.edge(graph.Edge{From: from, To: route, Kind: graph.EdgeAttach, Problem: problem})
			}
		}
	}
}

// parentNodes resolves a parentRef to the node it names (the listener its
// sectionName names, else the Gateway or ListenerSet) and to the listener
// nodes the IR serves the route on under it.
func (b *graphBuilder) parentNodes(route, routeNS string, ref gwv1.ParentReference) (string, []string) {
	ns := routeNS
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	key := ns + "/" + string(ref.Name)
	gwKey, target, prefix := key, gatewayNodeID(key), ""
	if ref.Kind != nil && *ref.Kind == "ListenerSet" {
		ls, ok := b.w.listenerSets.byKey[keyOf(ns, string(ref.Name))]
		if !ok {
			return b.node(graph.Node{ID: graph.KindListenerSet + "/" + key, Kind: graph.KindListenerSet, Name: key}), nil
		}
		parent, _ := parentGateway(ls)
		gwKey, target, prefix = parent.Namespace+"/"+parent.Name, graph.KindListenerSet+"/"+key, key+"/"
	}
	var served []string
	for _, lid := range b.attached[route+"|"+gwKey] {
		if !strings.HasPrefix(lid, listenerNodeID(gwKey, prefix)) {
			continue
		}
		if ref.SectionName == nil || lid == listenerNodeID(gwKey, prefix+string(*ref.SectionName)) {
			served = append(served, lid)
		}
	}
	if ref.SectionName != nil {
		if lid := listenerNodeID(gwKey, prefix+string(*ref.SectionName)); b.nodes[lid].ID != "" {
			target = lid
		}
	}
	if b.nodes[target].ID == "" {
		kind := graph.KindGateway
		if prefix != "" {
			kind = graph.KindListenerSet
		}
		b.node(graph.Node{ID: target, Kind: kind, Name: key})
	}
	return target, served
}

// policies adds the BackendTLSPolicies gwsim reports on, with an edge to
// each cluster the IR says the policy applies to.
func (b *graphBuilder) policies(ps []*gwv1.BackendTLSPolicy, out Output) {
	applied := map[string][]ir.Cluster{}
	for _, name := range slices.Sorted(maps.Keys(b.clusters)) {
		if c := b.clusters[name]; c.TLS != nil {
			applied[c.TLS.Policy] = append(applied[c.TLS.Policy], c)
		}
	}
	for _, p := range ps {
		ancestors, ok := out.Status.BackendTLSPolicies[keyOf(p.Namespace, p.Name)]
		key := p.Namespace + "/" + p.Name
		if !ok && len(applied[key]) == 0 {
			continue
		}
		problem := ""
		for _, a := range ancestors {
			if problem = problemOf(a.Conditions); problem != "" {
				break
			}
		}
		id := b.node(graph.Node{ID: graph.KindBackendTLSPolicy + "/" + key, Kind: graph.KindBackendTLSPolicy, Name: key, Problem: problem})
		for _, c := range applied[key] {
			backend := b.node(graph.Node{ID: graph.KindBackend + "/" + c.Name, Kind: graph.KindBackend, Name: c.Name})
			b.edge(graph.Edge{From: id, To: backend, Kind: graph.EdgePolicy, Problem: c.TLS.Invalid})
		}
	}
}

// graph sorts what was collected.
func (b *graphBuilder) graph() graph.Graph {
	g := graph.Graph{Nodes: []graph.Node{}, Edges: []graph.Edge{}}
	for _, id := range slices.Sorted(maps.Keys(b.nodes)) {
		g.Nodes = append(g.Nodes, b.nodes[id])
	}
	for e := range b.edges {
		g.Edges = append(g.Edges, e)
	}
	slices.SortFunc(g.Edges, func(x, y graph.Edge) int {
		return cmp.Or(cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To), cmp.Compare(x.Kind, y.Kind),
			cmp.Compare(x.Label, y.Label), cmp.Compare(x.Problem, y.Problem))
	})
	return g
}
