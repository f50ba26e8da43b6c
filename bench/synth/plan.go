package synth

import "fmt"

// routeKind is the kind of a generated route.
type routeKind int

const (
	httpRoute routeKind = iota
	grpcRoute
	tlsRoute
)

// route is every choice made for one generated route. Route i lives in
// namespace i mod Namespaces and owns the Service (and EndpointSlice) of
// its own name.
type route struct {
	index   int
	kind    routeKind
	name    string
	ns      int
	gateway int
	// word and version shape the path prefix or gRPC service name.
	word    string
	version int
	// tenant is the value the route's header match expects.
	tenant int
	// weight is the own backend's share of a split, out of 100.
	weight int
	// other is the second backend of a split; nil when there is none
	// (TLSRoutes, and a namespace with a single route).
	other *route
}

// crossNamespaceShare is the share of splits whose second backend is in the
// next namespace, allowed there by a ReferenceGrant.
const crossNamespaceShare = 0.10

var words = []string{
	"api", "auth", "billing", "cart", "catalog", "checkout", "search", "media",
	"orders", "payments", "profile", "reports", "reviews", "shipping", "users",
}

// plan holds every route, and the routes of each namespace in order.
type plan struct {
	routes []*route
	byNS   [][]*route
	// grpcSection is the listener GRPCRoutes attach to.
	grpcSection string
}

// newPlan makes every random choice up front, in a fixed order, so that the
// output depends on the options alone.
func newPlan(opts Options) *plan {
	rng := newRand(opts.Seed)
	p := &plan{byNS: make([][]*route, opts.Namespaces), grpcSection: "http"}
	if opts.TLS {
		p.grpcSection = "https"
	}
	for i := range opts.Routes {
		r := &route{
			index:   i,
			ns:      i % opts.Namespaces,
			gateway: rng.IntN(opts.Gateways),
			word:    words[rng.IntN(len(words))],
			version: 1 + rng.IntN(3),
			tenant:  rng.IntN(50),
			weight:  50 + 5*rng.IntN(10),
		}
		switch n := rng.IntN(100); {
		case n < 5:
			r.kind, r.name = tlsRoute, fmt.Sprintf("tls-%06d", i)
		case n < 15:
			r.kind, r.name = grpcRoute, fmt.Sprintf("rpc-%06d", i)
		default:
			r.kind, r.name = httpRoute, fmt.Sprintf("web-%06d", i)
		}
		p.routes = append(p.routes, r)
		p.byNS[r.ns] = append(p.byNS[r.ns], r)
	}
	for _, r := range p.routes {
		if r.kind == tlsRoute {
			continue
		}
		target := r.ns
		if opts.Namespaces > 1 && rng.Float64() < crossNamespaceShare {
			target = (r.ns + 1) % opts.Namespaces
		}
		candidates := p.byNS[target]
		if len(candidates) == 0 {
			continue
		}
		if o := candidates[rng.IntN(len(candidates))]; o != r {
			r.other = o
		}
	}
	return p
}
