package translate

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// attachedRoute is one route attached to one Gateway.
type attachedRoute struct {
	route  *routeResult
	parent *parentResult
}

// buildGatewayIR lays out one Gateway: a listener per port with its accepted
// Gateway listeners, a virtual host per (Gateway listener, hostname), routes
// in precedence order, and the clusters those routes forward to.
func (w *world) buildGatewayIR(gr *gatewayResult, routes []attachedRoute) ir.Gateway {
	g := ir.Gateway{Name: gr.name(), Class: gr.class.Name}
	ports := map[gwv1.PortNumber]*ir.Listener{}
	for _, l := range gr.allListeners() {
		if !l.accepted {
			continue
		}
		p, ok := ports[l.spec.Port]
		if !ok {
			p = &ir.Listener{Port: int32(l.spec.Port)}
			ports[l.spec.Port] = p
		}
		p.Listeners = append(p.Listeners, ir.GatewayListener{
			Name: l.id(), Protocol: string(l.spec.Protocol), Hostname: hostnameOf(l.spec.Hostname), ListenerSet: l.listenerSet(),
		})
		if tls := listenerTLS(l); tls != nil {
			p.TLS = append(p.TLS, *tls)
		}
	}
	addVirtualHosts(ports, routes)
	g.Clusters = gatewayClusters(routes)
	addL4Routes(ports, routes)
	for _, p := range ports {
		finishListener(p)
		g.Listeners = append(g.Listeners, *p)
	}
	slices.SortFunc(g.Listeners, func(a, b ir.Listener) int { return cmp.Compare(a.Port, b.Port) })
	return g
}

// gatewayClusters are the clusters the routes forward to, by name.
func gatewayClusters(routes []attachedRoute) []ir.Cluster {
	var byName []*ir.Cluster // sorted as pointers: a cluster is large
	at := make(map[string]int, len(routes))
	for _, ar := range routes {
		for j, c := range ar.route.clusters {
			if slices.Contains(ar.route.clusters[:j], c) {
				continue // the same cluster again: see world.cluster
			}
			if i, ok := at[c.Name]; ok {
				byName[i] = c
				continue
			}
			at[c.Name] = len(byName)
			byName = append(byName, c)
		}
	}
	if len(byName) == 0 {
		return nil
	}
	slices.SortFunc(byName, func(a, b *ir.Cluster) int { return cmp.Compare(a.Name, b.Name) })
	out := make([]ir.Cluster, len(byName))
	for i, c := range byName {
		out[i] = *c
	}
	return out
}

// addVirtualHosts adds to their ports the virtual hosts the routes' HTTP
// entries land in, each with its routes in precedence order. A route's
// entries are built once and shared by every virtual host it serves, and
// the virtual hosts' route lists are cut from one array (virtual hosts
// with the very same entries share theirs, see vhostRoutes): a Gateway
// with thousands of hostnames costs a few allocations, not a few per
// hostname.
func addVirtualHosts(ports map[gwv1.PortNumber]*ir.Listener, routes []attachedRoute) {
	var spans []vhostSpan
	spanAt := map[vhostKey]int{}
	// slots are the span of each (route, attachment, hostname) in the
	// order the second pass meets them.
	var slots []int
	total, entryTotal := 0, 0
	for _, ar := range routes {
		if ar.route.l4 == nil { // connection-level routes: see addL4Routes
			entryTotal += entryCount(ar.route)
		}
	}
	all := make([]routeEntry, 0, entryTotal)
	entriesOf := make([][]routeEntry, len(routes))
	for i, ar := range routes {
		if ar.route.l4 != nil {
			continue
		}
		start := len(all)
		all = appendHTTPEntries(all, ar.route)
		entriesOf[i] = all[start:len(all):len(all)]
		for _, att := range servedAttachments(ar.parent.attached) {
			for _, host := range att.hostnames {
				k := vhostKey{att.listener.spec.Port, att.listener.id(), host}
				j, ok := spanAt[k]
				if !ok {
					j = len(spans)
					spanAt[k] = j
					spans = append(spans, vhostSpan{key: k})
				}
				spans[j].n += len(entriesOf[i])
				total += len(entriesOf[i])
				slots = append(slots, j)
			}
		}
	}
	start := 0
	for j := range spans {
		spans[j].start, start, spans[j].n = start, start+spans[j].n, 0
	}
	sorted := make([]*routeEntry, total)
	next := 0
	for i, ar := range routes {
		if ar.route.l4 != nil {
			continue
		}
		for _, att := range servedAttachments(ar.parent.attached) {
			for range att.hostnames {
				s := &spans[slots[next]]
				next++
				for e := range entriesOf[i] {
					sorted[s.start+s.n] = &entriesOf[i][e]
					s.n++
				}
			}
		}
	}
	routesOf := vhostRoutes(spans, sorted)
	for j, s := range spans {
		ports[s.key.port].VirtualHosts = append(ports[s.key.port].VirtualHosts,
			ir.VirtualHost{Hostname: s.key.hostname, Listener: s.key.listener, Routes: routesOf[j]})
	}
}

// vhostSpan is where one virtual host's entries sit in addVirtualHosts'
// sorted entries.
type vhostSpan struct {
	key      vhostKey
	start, n int
}

// vhostRoutes sorts each virtual host's entries and makes its IR routes.
// A route usually lands in several virtual hosts with the same company (a
// hostname on an HTTP and an HTTPS listener): virtual hosts whose sorted
// entries are the very same share one array of IR routes (248 bytes each)
// instead of each holding a copy for as long as the Output lives. Nothing
// modifies the IR once built, so sharing is safe, and it renders the same.
func vhostRoutes(spans []vhostSpan, sorted []*routeEntry) [][]ir.Route {
	entries := func(s vhostSpan) []*routeEntry { return sorted[s.start : s.start+s.n] }
	sameAs := make([]int, len(spans)) // the span whose routes span j shares, or j
	// Candidates are found by a hash of the whole list, so that many
	// virtual hosts that differ only late in their lists (one route with
	// thousands of hostnames first in each) are not compared pairwise;
	// equality is still checked, and the first equal span in span order
	// wins, so the hash's values never show in the result.
	byHash := map[uint64][]int{}
	seed := maphash.MakeSeed()
	distinct := 0
	for j, s := range spans {
		list := entries(s)
		slices.SortFunc(list, compareRouteEntries)
		sameAs[j] = j
		if len(list) == 0 { // a route whose rules were all dropped
			continue
		}
		var h uint64
		for _, e := range list {
			h = h*31 + maphash.Comparable(seed, e)
		}
		for _, k := range byHash[h] {
			if slices.Equal(entries(spans[k]), list) {
				sameAs[j] = k
				break
			}
		}
		if sameAs[j] == j {
			byHash[h] = append(byHash[h], j)
			distinct += len(list)
		}
	}
	out := make([]ir.Route, 0, distinct)
	routesOf := make([][]ir.Route, len(spans))
	for j, s := range spans {
		if k := sameAs[j]; k != j {
			routesOf[j] = routesOf[k]
			continue
		}
		start := len(out)
		for _, e := range entries(s) {
			out = append(out, e.route)
		}
		routesOf[j] = out[start:len(out):len(out)]
	}
	return routesOf
}

type vhostKey struct {
	port     gwv1.PortNumber
	listener string
	hostname string
}

// finishListener sorts what a port holds: Gateway listeners and virtual
// hosts most specific hostname first, and names the port's protocol.
func finishListener(p *ir.Listener) {
	slices.SortFunc(p.Listeners, func(a, b ir.GatewayListener) int {
		return cmp.Or(compareHostnames(orCatchAll(a.Hostname), orCatchAll(b.Hostname)), cmp.Compare(a.Name, b.Name))
	})
	slices.SortFunc(p.TLS, func(a, b ir.TLS) int { return cmp.Compare(a.Listener, b.Listener) })
	slices.SortFunc(p.VirtualHosts, func(a, b ir.VirtualHost) int {
		return cmp.Or(compareHostnames(a.Hostname, b.Hostname), cmp.Compare(a.Listener, b.Listener))
	})
	var protocols []string
	for _, l := range p.Listeners {
		protocols = append(protocols, l.Protocol)
	}
	slices.Sort(protocols)
	p.Protocol = strings.Join(slices.Compact(protocols), "+")
}

func orCatchAll(h string) string {
	if h == "" {
		return CatchAll
	}
	return h
}

func listenerTLS(l *listenerResult) *ir.TLS {
	if l.spec.Protocol != gwv1.HTTPSProtocolType && l.spec.Protocol != gwv1.TLSProtocolType {
		return nil
	}
	// The CRD defaults tls.mode to Terminate; the loader applies it.
	var mode gwv1.TLSModeType
	if l.spec.TLS != nil {
		mode = deref(l.spec.TLS.Mode)
	}
	return &ir.TLS{Listener: l.id(), Mode: string(mode), SNI: hostnameOf(l.spec.Hostname), Certificates: l.certs,
		FrontendValidation: l.frontend}
}

// entryCount is the number of IR routes appendHTTPEntries makes of r.
func entryCount(r *routeResult) int {
	n := 0
	for _, rule := range r.rules {
		if !rule.dropped {
			n += len(rule.matches)
		}
	}
	return n
}

// appendHTTPEntries expands a route into one IR route per rule and match.
func appendHTTPEntries(out []routeEntry, r *routeResult) []routeEntry {
	for i, rule := range r.rules {
		if rule.dropped {
			continue
		}
		for j, m := range rule.matches {
			out = append(out, routeEntry{
				route: ir.Route{
					Match:   m,
					Filters: rule.filters,
					Action:  rule.action,
					Origin: ir.Origin{
						Kind: string(r.info.kind), Namespace: r.info.meta.Namespace, Name: r.info.meta.Name,
						Rule: i, Match: j,
					},
				},
				created: r.info.meta.CreationTimestamp,
				grpc:    rule.grpcKey(j),
			})
		}
	}
	return out
}
