package explain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// parent is what a route's parentRef resolves to.
type parent struct {
	// gateway is "namespace/name" of the Gateway, direct or through set.
	gateway string
	// set is "namespace/name" of the ListenerSet the parentRef names.
	set string
	// problem says why the parent takes no route at all.
	problem *Miss
}

// entry is one rule match of a route, as a candidate for the request.
type entry struct {
	rule, match int // -1 when the route's matches are not known
	spec        *ir.Match
	misses      []Miss
}

// routeMiss explains why parentRef i of r did not take the request, or
// reports false when the parentRef is about another Gateway.
func (w *world) routeMiss(s *scene, r *route, i int) (NearMiss, bool) {
	ref := r.parentRefs[i]
	p, ok := w.resolveParent(r, ref)
	if !ok {
		return NearMiss{}, false
	}
	other := !(s.concerns(p.gateway) || (p.problem != nil && s.asked == ""))
	if other && (s.gw == nil || p.problem != nil || !w.listensOn(p.gateway, s.req.Port)) {
		return NearMiss{}, false
	}
	nm := NearMiss{Object: w.ref(r.ref), ParentRef: &i}
	var entries []entry
	if other {
		nm.Failed = append(nm.Failed, Miss{Condition: CondGateway, Message: fmt.Sprintf(
			"attached to Gateway %s, which listens on port %d too; the request was taken by Gateway %s (--gateway or --address picks the other)",
			p.gateway, s.req.Port, s.gw.Name)})
		entries = w.specEntries(s, r)
	} else if p.problem != nil {
		nm.Failed = append(nm.Failed, *p.problem)
		entries = w.specEntries(s, r)
	} else if m := notAccepted(w.parentStatus(r, ref)); m != nil {
		nm.Failed = append(nm.Failed, *m)
		entries = w.specEntries(s, r)
	} else {
		var structural *Miss
		structural, entries = w.placedEntries(s, r, w.placements(r, p, ref))
		if structural != nil {
			nm.Failed = append(nm.Failed, *structural)
		}
	}
	if best := nearest(entries, s.req.Path); best != nil {
		if best.rule >= 0 {
			rule, match := best.rule, best.match
			nm.Rule, nm.Match, nm.RuleName, nm.Spec = &rule, &match, r.ruleName(rule), best.spec
			if r.ref.Kind == "GRPCRoute" {
				inGRPCTerms(best.misses, r.grpcKey(rule, match), s.req.Path)
			}
		}
		nm.Failed = append(nm.Failed, best.misses...)
	}
	return nm, true
}

// resolveParent finds the Gateway a parentRef names, directly or through a
// ListenerSet. ok is false for parent kinds gwsim does not simulate. The
// CRD defaults group and kind to a Gateway's; the loader applies it.
func (w *world) resolveParent(r *route, ref gwv1.ParentReference) (parent, bool) {
	if deref(ref.Group) != gwv1.GroupName {
		return parent{}, false
	}
	ns := cmp.Or(deref(ref.Namespace), r.ref.Namespace)
	key := types.NamespacedName{Namespace: ns, Name: string(ref.Name)}
	var p parent
	switch deref(ref.Kind) {
	case "Gateway":
		p.gateway = key.String()
	case "ListenerSet":
		p.set = key.String()
		ls, ok := w.sets[key]
		if !ok {
			p.problem = &Miss{Condition: CondGateway, Message: fmt.Sprintf("ListenerSet %s is not in the input: the route is attached nowhere", key)}
			return p, true
		}
		gk := types.NamespacedName{Namespace: cmp.Or(deref(ls.Spec.ParentRef.Namespace), ls.Namespace), Name: string(ls.Spec.ParentRef.Name)}
		p.gateway = gk.String()
	default:
		return parent{}, false
	}
	gk := gatewayKey(p.gateway)
	if _, ok := w.gateways[gk]; !ok {
		p.problem = &Miss{Condition: CondGateway, Reason: diag.ReasonParentNotFound, Message: fmt.Sprintf("Gateway %s is not in the input: the route is attached nowhere", gk)}
		return p, true
	}
	p.problem = w.gatewayProblem(gk)
	return p, true
}

// listensOn reports whether the Gateway "namespace/name" of the input has
// a listener on port, in its spec.
func (w *world) listensOn(gateway string, port int32) bool {
	g, ok := w.gateways[gatewayKey(gateway)]
	return ok && slices.ContainsFunc(g.Spec.Listeners, func(l gwv1.Listener) bool { return int32(l.Port) == port })
}

func gatewayKey(name string) types.NamespacedName {
	ns, n := splitName(name)
	return types.NamespacedName{Namespace: ns, Name: n}
}

// parentStatus finds the status the controller wrote for a parentRef; the
// status echoes the parentRef as stored.
func (w *world) parentStatus(r *route, ref gwv1.ParentReference) *gwv1.RouteParentStatus {
	for i, ps := range w.in.Status.Routes[r.ref] {
		pr := ps.ParentRef
		if pr.Name == ref.Name &&
			cmp.Or(deref(pr.Namespace), r.ref.Namespace) == cmp.Or(deref(ref.Namespace), r.ref.Namespace) &&
			deref(pr.Kind) == deref(ref.Kind) &&
			deref(pr.SectionName) == deref(ref.SectionName) &&
			((pr.Port == nil && ref.Port == nil) || (pr.Port != nil && ref.Port != nil && *pr.Port == *ref.Port)) {
			return &w.in.Status.Routes[r.ref][i]
		}
	}
	return nil
}

// notAccepted turns a parent status whose Accepted condition is not True
// into a miss; a parentRef without status is one gwsim wrote none for.
func notAccepted(ps *gwv1.RouteParentStatus) *Miss {
	if ps == nil {
		return &Miss{Condition: CondAttached, Message: "the controller wrote no status for this parentRef"}
	}
	c := meta.FindStatusCondition(ps.Conditions, string(gwv1.RouteConditionAccepted))
	if c == nil || c.Status == metav1.ConditionTrue {
		return nil
	}
	return &Miss{Condition: CondAttached, Reason: c.Reason, Message: fmt.Sprintf("not attached (%s): %s", c.Reason, c.Message)}
}

// placement is where an attached route landed: the IR routes of one
// virtual host that came from it.
type placement struct {
	port   *ir.Listener
	vh     *ir.VirtualHost
	routes []int
}

// placements finds the virtual hosts of the parent's Gateway where r
// landed through this parentRef: on the listeners its sectionName and
// port select, of the Gateway itself or of the ListenerSet it names.
func (w *world) placements(r *route, p parent, ref gwv1.ParentReference) []placement {
	g := w.irGateway(p.gateway)
	if g == nil {
		return nil
	}
	var out []placement
	for pi := range g.Listeners {
		port := &g.Listeners[pi]
		if ref.Port != nil && *ref.Port != port.Port {
			continue
		}
		for vi := range port.VirtualHosts {
			vh := &port.VirtualHosts[vi]
			if !selects(port, vh.Listener, p.set, deref(ref.SectionName)) {
				continue
			}
			pl := placement{port: port, vh: vh}
			for ri, rt := range vh.Routes {
				if rt.Origin.Kind == r.ref.Kind && rt.Origin.Namespace == r.ref.Namespace && rt.Origin.Name == r.ref.Name {
					pl.routes = append(pl.routes, ri)
				}
			}
			if len(pl.routes) > 0 {
				out = append(out, pl)
			}
		}
	}
	return out
}

// selects reports whether a parentRef to the Gateway (set empty) or to a
// ListenerSet, with an optional sectionName, covers the named listener.
func selects(port *ir.Listener, listener, set, section string) bool {
	for _, l := range port.Listeners {
		if l.Name != listener || l.ListenerSet != set {
			continue
		}
		own := l.Name
		if set != "" {
			own = own[strings.LastIndexByte(own, '/')+1:]
		}
		return section == "" || section == own
	}
	return false
}

// placedEntries are the candidate matches of an attached route. On the
// listener that took the request they are the route's matches there; a
// route only on other listeners fails Listener, and its matches elsewhere
// say how near it came otherwise.
func (w *world) placedEntries(s *scene, r *route, pls []placement) (*Miss, []entry) {
	if len(pls) == 0 {
		return &Miss{Condition: CondAttached, Message: "Accepted, but none of its rules is in the data plane (see gwsim check)"}, w.specEntries(s, r)
	}
	var here []placement
	for _, pl := range pls {
		if s.listener != nil && pl.port == s.port && pl.vh.Listener == s.listener.Name {
			here = append(here, pl)
		}
	}
	if len(here) > 0 {
		return nil, w.vhostEntries(s, here, true)
	}
	return w.elsewhere(s, pls), w.vhostEntries(s, pls, false)
}

// elsewhere describes the listeners a route is attached to when the one
// that took the request is not among them.
func (w *world) elsewhere(s *scene, pls []placement) *Miss {
	var at []string
	for _, pl := range pls {
		d := fmt.Sprintf("%s (port %d)", pl.vh.Listener, pl.port.Port)
		if !slices.Contains(at, d) {
			at = append(at, d)
		}
	}
	msg := "attached to listener " + strings.Join(at, ", ")
	switch {
	case s.listener != nil:
		msg += fmt.Sprintf("; the request was taken by listener %s (port %d)", s.listener.Name, s.port.Port)
	case s.port != nil:
		msg += "; no listener took the request"
	case s.noAddress:
		msg += fmt.Sprintf("; the request goes to address %s, which its Gateway does not have", s.req.Address)
	default:
		msg += fmt.Sprintf("; the request is for port %d", s.req.Port)
	}
	return &Miss{Condition: CondListener, Message: msg}
}

// vhostEntries are the matches of r in the given virtual hosts, each with
// its hostname miss: on the listener that took the request, a virtual host
// other than the chosen one either does not cover the host or lost to a
// more specific one (a request goes to one virtual host only).
func (w *world) vhostEntries(s *scene, pls []placement, onListener bool) []entry {
	var out []entry
	for _, pl := range pls {
		var host []Miss
		switch {
		case onListener && pl.vh.Hostname == s.res.VirtualHost:
		case !evaluate.HostMatches(pl.vh.Hostname, s.req.Host):
			host = []Miss{{Condition: CondHostname, Message: fmt.Sprintf("virtual host %s (listener %s) does not cover %s%s", pl.vh.Hostname, pl.vh.Listener, s.req.Host, didYouMean(s.req.Host, pl.vh.Hostname))}}
		case onListener:
			host = []Miss{{Condition: CondHostname, Message: fmt.Sprintf(
				"virtual host %s covers %s, but the more specific virtual host %s took the request (a request goes to one virtual host)",
				pl.vh.Hostname, s.req.Host, s.res.VirtualHost)}}
		}
		for _, ri := range pl.routes {
			rt := &pl.vh.Routes[ri]
			out = append(out, matchEntry(rt.Origin.Rule, rt.Origin.Match, &rt.Match, host, s.req.Request))
		}
	}
	return out
}

// specEntries are the matches a route that is not attached would have,
// read from its spec, with its hostnames checked against the host.
func (w *world) specEntries(s *scene, r *route) []entry {
	var host []Miss
	if len(r.hostnames) > 0 && !slices.ContainsFunc(r.hostnames, func(h string) bool { return evaluate.HostMatches(h, s.req.Host) }) {
		host = []Miss{{Condition: CondHostname, Message: fmt.Sprintf("hostnames %s do not cover %s", strings.Join(r.hostnames, ", "), s.req.Host)}}
	}
	if r.matches == nil {
		return []entry{{rule: -1, match: -1, misses: host}}
	}
	var out []entry
	for ri, ms := range r.matches {
		for mi := range ms {
			out = append(out, matchEntry(ri, mi, &r.matches[ri][mi], host, s.req.Request))
		}
	}
	return out
}

func matchEntry(rule, match int, m *ir.Match, host []Miss, req evaluate.Request) entry {
	misses := slices.Clone(host)
	for _, mm := range evaluate.Mismatches(*m, req) {
		misses = append(misses, describeMismatch(mm))
	}
	return entry{rule: rule, match: match, spec: m, misses: misses}
}

// nearest picks the entry with the fewest failed conditions; among equals,
// the one whose path shares the longest prefix with the request's, then
// the first rule and match.
func nearest(es []entry, target string) *entry {
	path, _, _ := strings.Cut(target, "?")
	var best *entry
	for i := range es {
		e := &es[i]
		if best == nil {
			best = e
			continue
		}
		if c := cmp.Or(
			cmp.Compare(len(e.misses), len(best.misses)),
			cmp.Compare(commonPrefix(best.spec, path), commonPrefix(e.spec, path)),
			cmp.Compare(e.rule, best.rule),
			cmp.Compare(e.match, best.match),
		); c < 0 {
			best = e
		}
	}
	return best
}

func commonPrefix(m *ir.Match, path string) int {
	if m == nil {
		return 0
	}
	n := 0
	for n < len(m.Path) && n < len(path) && m.Path[n] == path[n] {
		n++
	}
	return n
}

// inGRPCTerms restates a GRPCRoute match's path miss as the service or
// method the rule names and the call's: the IR matches gRPC calls by path,
// but a GRPCRoute is written in services and methods.
func inGRPCTerms(misses []Miss, k grpcKey, path string) {
	service, method, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	for i := range misses {
		if misses[i].Condition != CondPath {
			continue
		}
		switch {
		case k.service != "" && k.service != service:
			misses[i].Message = fmt.Sprintf("service %s required; the call is to %s%s", k.service, service, didYouMean(service, k.service))
		case k.method != "" && k.method != method:
			misses[i].Message = fmt.Sprintf("method %s required; the call is to %s%s", k.method, method, didYouMean(method, k.method))
		}
	}
}
