package translate

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// routeResult is one route of any kind translated independently of its
// parents: its data-plane shape, and its ResolvedRefs condition, which the
// spec defines per route, not per parent. Attachment and status are shared by
// every kind; only the translate<Kind> functions differ.
type routeResult struct {
	info       routeInfo
	generation int64
	refs       condition
	clusters   []*ir.Cluster // shared with other routes: see world.cluster
	findings   []diag.Finding
	// unmetTLS are the backends a BackendTLSPolicy applies to that gwsim
	// cannot meet (see unmetBackendTLS): they make ResolvedRefs False.
	unmetTLS []backendResult
	// rules holds the virtual-host routes of HTTPRoutes (and, in the same
	// shape, of any kind that routes HTTP requests).
	rules []httpRule
	// dropped are the HTTP rules left out because they are invalid; see
	// rule_dropped.go.
	dropped []droppedRule
	// l4 is the connection-level rule of TLSRoutes, TCPRoutes and UDPRoutes
	// (nil for HTTP kinds); see route_l4.go.
	l4 *l4Rule
}

// translateRoute translates the i-th route of the input, counting
// HTTPRoutes, then GRPCRoutes, TLSRoutes, TCPRoutes and UDPRoutes: the
// order in which routes are visited, and their findings listed.
func (w *world) translateRoute(i int) *routeResult {
	in := &w.in
	switch {
	case i < len(in.HTTPRoutes):
		return w.translateHTTPRoute(in.HTTPRoutes[i])
	case i < len(in.HTTPRoutes)+len(in.GRPCRoutes):
		return w.translateGRPCRoute(in.GRPCRoutes[i-len(in.HTTPRoutes)])
	}
	i -= len(in.HTTPRoutes) + len(in.GRPCRoutes)
	switch {
	case i < len(in.TLSRoutes):
		return w.translateTLSRoute(in.TLSRoutes[i])
	case i < len(in.TLSRoutes)+len(in.TCPRoutes):
		return w.translateTCPRoute(in.TCPRoutes[i-len(in.TLSRoutes)])
	}
	return w.translateUDPRoute(in.UDPRoutes[i-len(in.TLSRoutes)-len(in.TCPRoutes)])
}

// translateAndAttach translates every route of the input and attaches it
// to its parents, spread as sp says (see translate_parallel.go). It
// returns the routes in translateRoute's order with the parents of each,
// and their findings in that order: each route's own, then its
// attachment's.
func (w *world) translateAndAttach(gateways map[types.NamespacedName]*gatewayResult, sets map[types.NamespacedName]*listenerSetResult,
	sp spread) ([]*routeResult, [][]*parentResult, []diag.Finding) {
	n := routeCount(w.in)
	routes := make([]*routeResult, n)
	parents := make([][]*parentResult, n)
	attachFindings := make([][]diag.Finding, n)
	one := func(w *world, i int) {
		res := w.translateRoute(i)
		ps, fs := w.attachRoute(res.info, gateways, sets)
		rejectInvalidRoute(res, ps, w.routeProfile(res.info).Status.CountsRejectedRoutes && res.info.kind == "HTTPRoute")
		w.egResolverOnTerminatedTLS(res, ps)
		if len(ps) == 0 && w.checkedAlone(res.info) {
			fs = append(fs, w.ownFindings(res)...)
		}
		routes[i], parents[i], attachFindings[i] = res, ps, fs
	}
	forks := make([]*world, sp.chunks(n))
	sp.forChunks(n, func(c, lo, hi int) {
		f := w
		if len(forks) > 1 {
			f = w.fork()
		}
		for i := lo; i < hi; i++ {
			one(f, i)
		}
		forks[c] = f
	})
	if len(forks) > 1 {
		for _, f := range forks {
			w.assumed.merge(f.assumed)
		}
	}
	var findings []diag.Finding
	for i, res := range routes {
		findings = append(findings, res.findings...)
		findings = append(findings, attachFindings[i]...)
	}
	return routes, parents, findings
}
