package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// resolveKindConflicts applies GRPCRouteSpec.Hostnames' rule for HTTPRoutes
// and GRPCRoutes on one listener: when a route of one kind and a route of
// the other are attached to the same Gateway listener and their hostnames
// there intersect, exactly one is accepted, the oldest by
// creationTimestamp, then the first by "{namespace}/{name}" (and, for two
// routes of the same namespace and name, GRPCRoute before HTTPRoute). Routes
// are visited in that order and each listener keeps what the routes before
// claimed, so the outcome does not depend on input order.
//
// The spec gives no reason for the refusal; gwsim uses
// NotAllowedByListeners, the listener being what refuses the route. A
// parentRef refused on every listener it attached to gets Accepted=False;
// one still attached elsewhere stays Accepted=True, loses the refused
// listeners, and gets a warning. parents[i] are the parent results of
// routes[i]; they are changed in place, before status and the IR are built
// from them.
//
// Only routes that conflictCandidates finds take part in the ordered pass:
// the others keep every attachment and take no hostname another kind's
// route wants, whatever the order. Finding them is spread over up to
// workers goroutines.
func (w *world) resolveKindConflicts(routes []*routeResult, parents [][]*parentResult, workers int) []diag.Finding {
	parents = w.withoutSharedHostnames(parents)
	return w.resolveKindConflictsAmong(routes, parents, conflictCandidates(routes, parents, workers))
}

// withoutSharedHostnames leaves out the parents on a Gateway whose profile
// serves HTTPRoutes and GRPCRoutes together on a hostname
// (ListenerChoices.HTTPAndGRPCShareHostnames): no route there is refused for
// the other kind. parents is returned as is when no parent is left out.
func (w *world) withoutSharedHostnames(parents [][]*parentResult) [][]*parentResult {
	shares := func(p *parentResult) bool {
		return p.gateway != nil && ProfileOf(w.opts, p.gateway.class).Listeners.HTTPAndGRPCShareHostnames
	}
	if !slices.ContainsFunc(parents, func(ps []*parentResult) bool { return slices.ContainsFunc(ps, shares) }) {
		return parents
	}
	out := make([][]*parentResult, len(parents))
	for i, ps := range parents {
		out[i] = slices.DeleteFunc(slices.Clone(ps), shares)
	}
	return out
}

// resolveKindConflictsAmong runs the ordered pass over the HTTPRoutes and
// GRPCRoutes routes[i] for which candidate[i] is set.
func (w *world) resolveKindConflictsAmong(routes []*routeResult, parents [][]*parentResult, candidate []bool) []diag.Finding {
	var order []claimOrder
	for i, r := range routes {
		if candidate[i] && (r.info.kind == "HTTPRoute" || r.info.kind == "GRPCRoute") {
			t := r.info.meta.CreationTimestamp.Time
			order = append(order, claimOrder{sec: t.Unix(), nsec: t.Nanosecond(), info: &r.info, index: i})
		}
	}
	slices.SortFunc(order, compareClaimOrder)
	claims := map[*listenerResult]*listenerClaims{}
	var findings []diag.Finding
	for _, o := range order {
		r := *o.info
		for _, p := range parents[o.index] {
			var kept []attachment // nil while every attachment is kept
			var refused []string
			for j, a := range p.attached {
				lc := claims[a.listener]
				if lc == nil {
					lc = &listenerClaims{}
					claims[a.listener] = lc
				}
				if why, ok := lc.conflictWith(r.kind, a); ok {
					if refused == nil {
						kept = slices.Clone(p.attached[:j])
					}
					refused = append(refused, why)
					continue
				}
				lc.add(hostClaim{route: r, hostnames: a.hostnames})
				if refused != nil {
					kept = append(kept, a)
				}
			}
			if len(refused) == 0 {
				continue
			}
			p.attached = kept
			msg := strings.Join(refused, "; ")
			accepted := string(gwv1.RouteConditionAccepted)
			if len(kept) == 0 {
				p.accepted = falseCond(accepted, string(gwv1.RouteReasonNotAllowedByListeners), msg)
				continue
			}
			p.accepted = trueCond(accepted, string(gwv1.RouteReasonAccepted),
				fmt.Sprintf("attached to %s listener(s) %s; %s", p.name(), listenerNames(kept), msg))
			findings = append(findings, w.routeFinding(r, diag.Warning, fmt.Sprintf("spec.parentRefs[%d]", p.index),
				string(gwv1.RouteReasonNotAllowedByListeners), msg))
		}
	}
	return findings
}

// conflictCandidates marks the HTTPRoutes and GRPCRoutes with an attachment
// whose hostnames intersect those of an attachment of a route of the other
// kind on the same listener, in any order. An unmarked route is never
// refused, and its claims never refuse another route: a claim that would
// refuse one intersects it, and hostnamesIntersect is symmetric, so both
// would be marked. The earliest claim that refuses a marked route is
// therefore marked too, and the ordered pass over the marked routes alone
// gives the same result and messages as over all of them. Listeners are
// looked at on up to workers goroutines; only those that both kinds
// attach to are indexed at all.
func conflictCandidates(routes []*routeResult, parents [][]*parentResult, workers int) []bool {
	byListener := map[*listenerResult]*kindClaims{}
	var shared []*kindClaims // listeners that both kinds attach to
	for i, r := range routes {
		if r.info.kind != "HTTPRoute" && r.info.kind != "GRPCRoute" {
			continue
		}
		for _, p := range parents[i] {
			for _, a := range p.attached {
				kc := byListener[a.listener]
				if kc == nil {
					kc = &kindClaims{}
					byListener[a.listener] = kc
				}
				s, other := &kc.http, &kc.grpc
				if r.info.kind == "GRPCRoute" {
					s, other = other, s
				}
				if len(s.claims) == 0 && len(other.claims) > 0 {
					shared = append(shared, kc)
				}
				s.claims = append(s.claims, hostClaim{route: r.info, hostnames: a.hostnames})
				s.owners = append(s.owners, i)
			}
		}
	}
	marked := make([][]int, len(shared))
	fanOut(workers, len(shared), func(j int) { marked[j] = shared[j].intersecting() })
	candidate := make([]bool, len(routes))
	for _, m := range marked {
		for _, i := range m {
			candidate[i] = true
		}
	}
	return candidate
}

// kindClaims are the claims of the HTTPRoutes and of the GRPCRoutes
// attached to one listener, each with the index of its route.
type kindClaims struct{ http, grpc claimList }

type claimList struct {
	claims []hostClaim
	owners []int
}

// intersecting returns the routes of the claims that intersect a claim of
// the other kind (a route once per claim).
func (kc *kindClaims) intersecting() []int {
	var httpIx, grpcIx claimIndex
	httpIx.addAll(kc.http.claims)
	grpcIx.addAll(kc.grpc.claims)
	var out []int
	for _, pair := range []struct {
		side  *claimList
		other *claimIndex
	}{{&kc.http, &grpcIx}, {&kc.grpc, &httpIx}} {
		for pos, c := range pair.side.claims {
			if _, ok := pair.other.firstIntersecting(c.hostnames); ok {
				out = append(out, pair.side.owners[pos])
			}
		}
	}
	return out
}

// claimOrder is a route's place in the order routes claim hostnames:
// creationTimestamp (as time.Time.Compare orders it: seconds, then
// nanoseconds), namespace, name, kind.
type claimOrder struct {
	sec   int64
	nsec  int
	info  *routeInfo
	index int
}

func compareClaimOrder(a, b claimOrder) int {
	if c := cmp.Or(cmp.Compare(a.sec, b.sec), cmp.Compare(a.nsec, b.nsec)); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.info.meta.Namespace, b.info.meta.Namespace), cmp.Compare(a.info.meta.Name, b.info.meta.Name),
		cmp.Compare(a.info.kind, b.info.kind))
}

// hostClaim is a route accepted on a listener with the hostnames it serves
// there.
type hostClaim struct {
	route     routeInfo
	hostnames []string
}

// conflictWith explains why attachment a of a route of kind cannot join
// the listener: a route of the other HTTP kind, claimed earlier, serves an
// intersecting hostname there. The earliest such claim is the one named.
func (lc *listenerClaims) conflictWith(kind gwv1.Kind, a attachment) (string, bool) {
	other := &lc.http
	if kind == "HTTPRoute" {
		other = &lc.grpc
	}
	c, ok := other.firstIntersecting(a.hostnames)
	if !ok {
		return "", false
	}
	host, _ := hostnamesIntersect(c.hostnames, a.hostnames)
	return fmt.Sprintf("listener %s refuses this %s: %s %s/%s, which takes precedence (older, or first by namespace/name), already serves %s there, and HTTPRoutes and GRPCRoutes may not share a hostname on a listener",
		a.listener.spec.Name, kind, c.route.kind, c.route.meta.Namespace, c.route.meta.Name, host), true
}

// hostnamesIntersect reports whether two sets of served hostnames (as
// intersectHostnames returns them) share a name, and the more specific side
// of the first pair that does.
func hostnamesIntersect(a, b []string) (string, bool) {
	for _, x := range a {
		for _, y := range b {
			switch {
			case x == CatchAll || hostnameMatches(x, y):
				return y, true
			case y == CatchAll || hostnameMatches(y, x):
				return x, true
			}
		}
	}
	return "", false
}
