package translate

import (
	"github.com/gwsim/gwsim/translate/diag"
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
	// droppedrules.go.
	dropped []droppedRule
	// l4 is the connection-level rule of TLSRoutes, TCPRoutes and UDPRoutes
	// (nil for HTTP kinds); see l4route.go.
	l4 *l4Rule
}

// translateRoutes translates every route of the input, of every kind gwsim
// simulates, in a fixed order.
func (w *world) translateRoutes() []*routeResult {
	out := make([]*routeResult, 0, routeCount(w.in))
	for _, r := range w.in.HTTPRoutes {
		out = append(out, w.translateHTTPRoute(r))
	}
	for _, r := range w.in.GRPCRoutes {
		out = append(out, w.translateGRPCRoute(r))
	}
	for _, r := range w.in.TLSRoutes {
		out = append(out, w.translateTLSRoute(r))
	}
	for _, r := range w.in.TCPRoutes {
		out = append(out, w.translateTCPRoute(r))
	}
	for _, r := range w.in.UDPRoutes {
		out = append(out, w.translateUDPRoute(r))
	}
	return out
}
