package translate

import (
	"cmp"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// l4Entry is an IR L4 route with what precedence needs beyond the IR.
type l4Entry struct {
	route   ir.L4Route
	port    gwv1.PortNumber
	tls     bool
	created metav1.Time
}

// l4Slot is what tells connections apart on a Gateway: the listener and,
// for TLS, the SNI. Routes sharing a slot compete for the same connections.
type l4Slot struct {
	port     gwv1.PortNumber
	listener string
	sni      string
}

// addL4Routes lays out the TLSRoutes, TCPRoutes and UDPRoutes attached to
// one Gateway on its ports. Routes that share a slot are all kept, as the
// spec keeps them all Accepted (GEP-2644, "Multiple TCPRoutes attaching to
// the same listener"), but only the first by the Gateway API's route
// precedence (oldest creationTimestamp, then namespace/name) takes traffic;
// the others are marked SupersededBy it.
func addL4Routes(ports map[gwv1.PortNumber]*ir.Listener, routes []attachedRoute) {
	slots := map[l4Slot][]l4Entry{}
	for _, ar := range routes {
		if ar.route.l4 == nil {
			continue
		}
		for _, att := range servedAttachments(ar.parent.attached) {
			for _, e := range l4Entries(ar.route, att) {
				k := l4Slot{e.port, e.route.Listener, e.route.SNI}
				if !slices.ContainsFunc(slots[k], func(o l4Entry) bool { return o.route.Origin == e.route.Origin }) {
					slots[k] = append(slots[k], e)
				}
			}
		}
	}
	byPort := map[gwv1.PortNumber][]l4Entry{}
	for k, entries := range slots {
		slices.SortFunc(entries, compareL4Precedence)
		for i := range entries {
			if i > 0 {
				winner := entries[0].route.Origin
				entries[i].route.SupersededBy = &winner
			}
		}
		byPort[k.port] = append(byPort[k.port], entries...)
	}
	for port, entries := range byPort {
		slices.SortFunc(entries, compareL4Entries)
		p := ports[port]
		for _, e := range entries {
			if e.tls {
				p.TLSRoutes = append(p.TLSRoutes, e.route)
			} else {
				p.Forward = append(p.Forward, e.route)
			}
		}
	}
}

// l4Entries expands one attachment of an L4 route: one entry per SNI on a
// TLS listener, one entry on a TCP or UDP listener, whose hostname plays no
// part in matching.
func l4Entries(r *routeResult, att attachment) []l4Entry {
	l := att.listener.spec
	base := l4Entry{
		route: ir.L4Route{
			Listener: att.listener.id(),
			Backends: r.l4.backends,
			Reject:   r.l4.reject,
			Origin:   ir.Origin{Kind: string(r.info.kind), Namespace: r.info.meta.Namespace, Name: r.info.meta.Name},
		},
		port:    l.Port,
		tls:     l.Protocol == gwv1.TLSProtocolType,
		created: r.info.meta.CreationTimestamp,
	}
	if !base.tls {
		return []l4Entry{base}
	}
	out := make([]l4Entry, 0, len(att.hostnames))
	for _, h := range att.hostnames {
		e := base
		e.route.SNI = h
		out = append(out, e)
	}
	return out
}

// compareL4Precedence orders routes competing for one slot: the oldest
// creationTimestamp first, then namespace/name alphabetically.
func compareL4Precedence(a, b l4Entry) int {
	return cmp.Or(
		compareCreation(a.created, b.created),
		cmp.Compare(a.route.Origin.Namespace, b.route.Origin.Namespace),
		cmp.Compare(a.route.Origin.Name, b.route.Origin.Name),
		cmp.Compare(a.route.Origin.Kind, b.route.Origin.Kind),
	)
}

// compareL4Entries orders a port's L4 routes as a data plane tries them:
// most specific SNI first (exact, wildcards with more labels, catch-all),
// then by listener, then the live route before those it supersedes.
func compareL4Entries(a, b l4Entry) int {
	return cmp.Or(
		compareHostnames(a.route.SNI, b.route.SNI),
		cmp.Compare(a.route.Listener, b.route.Listener),
		compareL4Precedence(a, b),
	)
}

// supersededFindings warns about every L4 route of g that receives no
// traffic because another route on the same listener (and SNI) takes it.
// The route stays Accepted, as the spec requires, so without this finding
// nothing would say so.
func (w *world) supersededFindings(g ir.Gateway) []diag.Finding {
	var out []diag.Finding
	for _, l := range g.Listeners {
		for _, r := range slices.Concat(l.TLSRoutes, l.Forward) {
			if r.SupersededBy == nil {
				continue
			}
			ref := diag.ObjectRef{Kind: r.Origin.Kind, Namespace: r.Origin.Namespace, Name: r.Origin.Name}
			where := fmt.Sprintf("Gateway %s listener %s", g.Name, r.Listener)
			if r.SNI != "" {
				where += " for SNI " + r.SNI
			}
			win := r.SupersededBy
			out = append(out, diag.Finding{
				Severity: diag.Warning, Object: ref, Source: w.in.Sources.Of(ref), Reason: diag.ReasonSuperseded,
				Message: fmt.Sprintf("receives no traffic on %s: %s %s/%s takes every connection there (older, or first by namespace/name); both stay Accepted",
					where, win.Kind, win.Namespace, win.Name),
			})
		}
	}
	return out
}
