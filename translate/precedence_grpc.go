package translate

import "cmp"

// grpcMethodKey is what a GRPCRoute match names of the gRPC method, kept
// beside the IR match because precedence ranks by it and the path in the
// IR no longer says which part was the service. Empty means "any".
type grpcMethodKey struct {
	service string
	method  string
}

// compareGRPCRoutes orders two GRPCRoute entries of one virtual host by the
// precedence rules of GRPCRouteRule.Matches. The first two rules (more
// characters in a matching non-wildcard hostname, then in a matching
// hostname) order virtual hosts, not routes: every entry compared here
// serves the same hostname. Then the match with more characters in its
// service goes first; then more characters in its method; then more header
// matches. Ties across routes go to the oldest creationTimestamp, then to
// namespace/name alphabetically; within a route, to the earlier rule and
// match. It returns a negative number when a takes precedence over b.
//
// The spec counts characters and does not say how a RegularExpression
// method match ranks; gwsim counts the characters of the expression as
// written, so an expression is ranked like an exact name of its length.
func compareGRPCRoutes(a, b *routeEntry) int {
	if c := cmp.Or(
		cmp.Compare(len(b.grpc.service), len(a.grpc.service)),
		cmp.Compare(len(b.grpc.method), len(a.grpc.method)),
		cmp.Compare(len(b.route.Match.Headers), len(a.route.Match.Headers)),
	); c != 0 {
		return c
	}
	return compareEntryTies(a, b)
}

// grpcKey returns the gRPC method key of match j of the rule, empty for
// rules of other kinds.
func (r httpRule) grpcKey(j int) grpcMethodKey {
	if j < len(r.grpc) {
		return r.grpc[j]
	}
	return grpcMethodKey{}
}
