package translate

import (
	"cmp"
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
	// Entries are built once per route and shared by every virtual host
	// the route serves; virtual hosts sort pointers to them.
	vhosts := map[vhostKey][]*routeEntry{}
	clusterAt := map[string]int{}
	for _, ar := range routes {
		entries := httpEntries(ar.route)
		vhostAttachments := servedAttachments(ar.parent.attached)
		if ar.route.l4 != nil {
			vhostAttachments = nil // connection-level routes: see addL4Routes
		}
		for _, att := range vhostAttachments {
			for _, host := range att.hostnames {
				k := vhostKey{att.listener.spec.Port, att.listener.id(), host}
				vh := vhosts[k]
				for i := range entries {
					vh = append(vh, &entries[i])
				}
				vhosts[k] = vh
			}
		}
		for _, c := range ar.route.clusters {
			if i, ok := clusterAt[c.Name]; ok {
				g.Clusters[i] = c
				continue
			}
			clusterAt[c.Name] = len(g.Clusters)
			g.Clusters = append(g.Clusters, c)
		}
	}
	for k, entries := range vhosts {
		slices.SortFunc(entries, compareRouteEntries)
		vh := ir.VirtualHost{Hostname: k.hostname, Listener: k.listener, Routes: make([]ir.Route, len(entries))}
		for i, e := range entries {
			vh.Routes[i] = e.route
		}
		ports[k.port].VirtualHosts = append(ports[k.port].VirtualHosts, vh)
	}
	addL4Routes(ports, routes)
	for _, p := range ports {
		finishListener(p)
		g.Listeners = append(g.Listeners, *p)
	}
	slices.SortFunc(g.Listeners, func(a, b ir.Listener) int { return cmp.Compare(a.Port, b.Port) })
	slices.SortFunc(g.Clusters, func(a, b ir.Cluster) int { return cmp.Compare(a.Name, b.Name) })
	return g
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

// httpEntries expands a route into one IR route per rule and match.
func httpEntries(r *routeResult) []routeEntry {
	n := 0
	for _, rule := range r.rules {
		if !rule.dropped {
			n += len(rule.matches)
		}
	}
	out := make([]routeEntry, 0, n)
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
