package explain

import (
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/ir"
)

// explainMatch fills in what happened once a route rule took the request.
func (w *world) explainMatch(s *scene, t *Trace) {
	win := s.res.Route
	t.Route = w.routeStep(*win)
	t.Losers = w.losers(s)
	for _, f := range win.Filters {
		t.Filters = append(t.Filters, FilterStep{Scope: "rule", Filter: f})
	}
	if s.res.Outcome == evaluate.Routed && s.res.Backend != nil {
		for _, f := range s.res.Backend.Filters {
			t.Filters = append(t.Filters, FilterStep{Scope: "backend", Filter: f})
		}
		fwd := s.res.Forwarded
		t.Forwarded = &Forwarded{Host: fwd.Host, Path: fwd.Path, Headers: nonEmpty(fwd.Headers), Changes: changes(s.req.Request, fwd)}
		for _, m := range s.res.Mirrors {
			t.Mirrors = append(t.Mirrors, Mirror{Cluster: m.Cluster, Numerator: m.Numerator, Denominator: m.Denominator})
		}
	}
	t.Location = s.res.Location
	t.ResponseHeaders = s.res.ResponseHeaders
	t.Backends = w.backends(s, win.Action.Backends)
}

// routeStep names an IR route's object, rule and match.
func (w *world) routeStep(r ir.Route) *RouteStep {
	o := r.Origin
	ref := diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
	step := &RouteStep{Object: w.ref(ref), Rule: o.Rule, Match: o.Match, Spec: r.Match}
	if rt := w.byRef[ref]; rt != nil {
		step.RuleName = rt.ruleName(o.Rule)
	}
	return step
}

// losers are the routes after the winner in its virtual host that match
// the request too: they are sorted by precedence, so the winner beat each.
func (w *world) losers(s *scene) []Loser {
	vh := s.virtualHost()
	if vh == nil {
		return nil
	}
	win := slices.IndexFunc(vh.Routes, func(r ir.Route) bool { return sameRoute(r, *s.res.Route) })
	if win < 0 {
		panic("bug: the winning route is not in its virtual host")
	}
	var out []Loser
	for _, r := range vh.Routes[win+1:] {
		if len(evaluate.Mismatches(r.Match, s.req.Request)) > 0 {
			continue
		}
		out = append(out, Loser{RouteStep: *w.routeStep(r), DecidedBy: w.decidedBy(vh.Routes[win], r)})
	}
	return out
}

// virtualHost returns the virtual host that took the request.
func (s *scene) virtualHost() *ir.VirtualHost {
	if s.port == nil || s.listener == nil {
		return nil
	}
	for i := range s.port.VirtualHosts {
		vh := &s.port.VirtualHosts[i]
		if vh.Listener == s.listener.Name && vh.Hostname == s.res.VirtualHost {
			return vh
		}
	}
	return nil
}

func sameRoute(a, b ir.Route) bool {
	return a.Origin == b.Origin && a.Match.PathType == b.Match.PathType && a.Match.Path == b.Match.Path &&
		a.Match.Method == b.Match.Method && slices.Equal(a.Match.Headers, b.Match.Headers) &&
		slices.Equal(a.Match.QueryParams, b.Match.QueryParams)
}

// backends lists every backendRef of the winning rule with its share, its
// Service and the cluster's endpoints.
func (w *world) backends(s *scene, bs []ir.WeightedBackend) []BackendStep {
	o := s.res.Route.Origin
	rt := w.routeOf(o)
	out := make([]BackendStep, 0, len(bs))
	for i := range bs {
		b := &bs[i]
		step := BackendStep{Cluster: b.Cluster, Weight: b.Weight, Invalid: b.Invalid, Filters: b.Filters}
		step.Percent = share(bs, b.Weight)
		step.Chosen = s.res.Outcome == evaluate.Routed && s.res.Backend == b
		if br, ok := rt.backendRef(o.Rule, i); ok {
			ref := w.ref(br.ref)
			step.BackendRef, step.Port = &ref, br.port
		}
		if cl := clusterOf(s.gw, b.Cluster); cl != nil {
			step.Endpoints, step.NoReadyEndpoints, step.Address = cl.Endpoints, cl.NoReadyEndpoints, cl.Address
			step.Extension = cl.Extension
		}
		out = append(out, step)
	}
	return out
}

// changes lists what the filters did to the request: host and path
// rewrites, then header changes by header name.
func changes(req evaluate.Request, fwd evaluate.ForwardedRequest) []Change {
	var out []Change
	if fwd.Host != req.Host {
		out = append(out, Change{What: "host", Op: "set", From: req.Host, Value: fwd.Host})
	}
	if fwd.Path != req.Path {
		out = append(out, Change{What: "path", Op: "set", From: req.Path, Value: fwd.Path})
	}
	names := map[string]bool{}
	for k := range req.Headers {
		names[http.CanonicalHeaderKey(k)] = true
	}
	for k := range fwd.Headers {
		names[http.CanonicalHeaderKey(k)] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	for _, k := range sorted {
		before, after := req.Headers.Values(k), fwd.Headers.Values(k)
		switch {
		case len(before) == 0 && len(after) > 0:
			out = append(out, Change{What: "header", Name: k, Op: "added", Value: strings.Join(after, ", ")})
		case len(before) > 0 && len(after) == 0:
			out = append(out, Change{What: "header", Name: k, Op: "removed", From: strings.Join(before, ", ")})
		case !slices.Equal(before, after):
			out = append(out, Change{What: "header", Name: k, Op: "set", From: strings.Join(before, ", "), Value: strings.Join(after, ", ")})
		}
	}
	return out
}

func nonEmpty(h http.Header) http.Header {
	if len(h) == 0 {
		return nil
	}
	return h
}

// share is a weight's percentage of the backends' total weight, to two
// decimals; 0 when the total is 0.
func share(bs []ir.WeightedBackend, weight int32) float64 {
	var total int64
	for _, b := range bs {
		total += int64(b.Weight)
	}
	if total == 0 {
		return 0
	}
	return math.Round(float64(weight)*10000/float64(total)) / 100
}
