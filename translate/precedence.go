package translate

import (
	"cmp"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// routeEntry is an IR route with what precedence needs beyond the IR.
type routeEntry struct {
	route   ir.Route
	created metav1.Time
	// grpc is the service and method a GRPCRoute match names.
	grpc grpcMethodKey
}

// compareRouteEntries orders the routes of one virtual host. Every kind
// that lands in virtual hosts orders by its own rules. HTTPRoutes and
// GRPCRoutes share a virtual host only under a profile that serves both on
// one listener hostname (ListenerChoices.HTTPAndGRPCShareHostnames; the
// generic profile refuses one, listener_kindconflict.go): entries of the
// two kinds are then ordered by their IR matches, as Envoy Gateway sorts
// the routes of a listener whatever their kind (internal/gatewayapi/sort.go
// XdsIRRoutes: an Exact path before a regular expression before a prefix,
// then the longer path, then more header and query matches), and a tie
// goes to the older route, then by namespace/name, then by kind.
func compareRouteEntries(a, b *routeEntry) int {
	if a.route.Origin.Kind != b.route.Origin.Kind {
		am, bm := &a.route.Match, &b.route.Match
		return cmp.Or(
			cmp.Compare(PathTypeRank(bm.PathType), PathTypeRank(am.PathType)),
			cmp.Compare(len(bm.Path), len(am.Path)),
			cmp.Compare(len(bm.Headers), len(am.Headers)),
			cmp.Compare(len(bm.QueryParams), len(am.QueryParams)),
			compareEntryTies(a, b),
			cmp.Compare(a.route.Origin.Kind, b.route.Origin.Kind))
	}
	if a.route.Origin.Kind == "GRPCRoute" {
		return compareGRPCRoutes(a, b)
	}
	return compareHTTPRoutes(a, b)
}

// compareHTTPRoutes orders two HTTP route entries by the precedence rules of
// HTTPRouteRule.Matches: an Exact path first; then the PathPrefix with more
// characters; then a match with a method; then more header matches; then
// more query parameter matches. Ties across routes go to the oldest
// creationTimestamp (unset timestamps are equal), then to namespace/name
// alphabetically; within a route, to the earlier rule and match. It returns
// a negative number when a takes precedence over b.
//
// RegularExpression paths are implementation-specific; gwsim ranks them
// after Exact and before PathPrefix, longer expressions first.
func compareHTTPRoutes(a, b *routeEntry) int {
	am, bm := &a.route.Match, &b.route.Match
	if c := cmp.Or(
		cmp.Compare(PathTypeRank(bm.PathType), PathTypeRank(am.PathType)),
		cmp.Compare(len(bm.Path), len(am.Path)),
		cmp.Compare(boolRank(bm.Method != ""), boolRank(am.Method != "")),
		cmp.Compare(len(bm.Headers), len(am.Headers)),
		cmp.Compare(len(bm.QueryParams), len(am.QueryParams)),
	); c != 0 {
		return c
	}
	return compareEntryTies(a, b)
}

// compareEntryTies breaks a precedence tie between two route entries: the
// oldest creationTimestamp, then namespace/name alphabetically, then, within
// a route, the earlier rule and match. It is apart from the ranks so that
// the strings are compared only on a tie.
func compareEntryTies(a, b *routeEntry) int {
	if c := compareCreation(a.created, b.created); c != 0 {
		return c
	}
	ao, bo := &a.route.Origin, &b.route.Origin
	if c := cmp.Compare(ao.Namespace, bo.Namespace); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(ao.Name, bo.Name), cmp.Compare(ao.Rule, bo.Rule), cmp.Compare(ao.Match, bo.Match))
}

// PathTypeRank orders path match types by the precedence HTTPRoute gives
// them: Exact before RegularExpression before PathPrefix.
func PathTypeRank(t string) int {
	switch gwv1.PathMatchType(t) {
	case gwv1.PathMatchExact:
		return 3
	case gwv1.PathMatchRegularExpression:
		return 2
	}
	return 1
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareCreation puts the older timestamp first; an unset timestamp equals
// any other unset one, so document order never decides.
func compareCreation(a, b metav1.Time) int {
	return a.Time.Compare(b.Time)
}
