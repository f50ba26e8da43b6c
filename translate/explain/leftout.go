package explain

import (
	"slices"

	"github.com/gwsim/gwsim/diag"
)

// Routes left out of every data plane can still be the one a request was
// meant for: a route the API server would refuse, one of a kind or
// version the CRD channel does not serve, one that names no parentRefs.
// Each is a near miss, with the finding that says why and where.

// The conditions of routes left out.
const (
	// CondRejected: the API server would refuse the route (validation);
	// gwsim leaves it out.
	CondRejected Condition = "Rejected"
	// CondChannel: the CRD channel does not serve the route's kind or
	// version; gwsim leaves it out.
	CondChannel Condition = "Channel"
	// CondParentRefs: the route names no parentRefs and attaches nowhere.
	CondParentRefs Condition = "ParentRefs"
)

// httpKinds and l4Kinds are the route kinds that may take a request, and a
// connection.
var (
	httpKinds = []string{"HTTPRoute", "GRPCRoute"}
	l4Kinds   = map[string][]string{"tcp": {"TCPRoute"}, "udp": {"UDPRoute"}, "tls": {"TLSRoute"}, "https": {"TLSRoute"}}
)

// leftOutMisses are the routes of kinds that the loader left out (the
// findings of reasons AdmissionRejected and NotServed), one near miss per
// route with one failed condition per finding, each with its field,
// message and file:line.
func (w *world) leftOutMisses(kinds []string) []NearMiss {
	var out []NearMiss
	index := map[diag.ObjectRef]int{}
	for _, f := range w.in.Findings {
		var cond Condition
		switch f.Reason {
		case diag.ReasonAdmissionRejected:
			cond = CondRejected
		case diag.ReasonNotServed:
			cond = CondChannel
		default:
			continue
		}
		if !slices.Contains(kinds, f.Object.Kind) {
			continue
		}
		msg := f.Message
		if f.Field != "" {
			msg = f.Field + ": " + msg
		}
		i, ok := index[f.Object]
		if !ok {
			i = len(out)
			index[f.Object] = i
			out = append(out, NearMiss{Object: Ref{Kind: f.Object.Kind, Namespace: f.Object.Namespace, Name: f.Object.Name, Source: f.Source.String()}})
		}
		out[i].Failed = append(out[i].Failed, Miss{Condition: cond, Reason: f.Reason, Message: msg, Source: f.Source.String()})
	}
	return out
}

// noParentMisses are the HTTP and gRPC routes that name no parentRefs,
// with their nearest match: they would take the request if attached.
func (w *world) noParentMisses(s *scene) []NearMiss {
	var out []NearMiss
	for _, r := range w.routes {
		if len(r.parentRefs) > 0 {
			continue
		}
		nm := NearMiss{Object: w.ref(r.ref), Failed: []Miss{{Condition: CondParentRefs, Reason: diag.ReasonNoParentRefs,
			Message: "the route names no parentRefs, so it attaches to no Gateway", Source: w.ref(r.ref).Source}}}
		if best := nearest(w.specEntries(s, r), s.req.Path); best != nil {
			if best.rule >= 0 {
				rule, match := best.rule, best.match
				nm.Rule, nm.Match, nm.RuleName, nm.Spec = &rule, &match, r.ruleName(rule), best.spec
			}
			nm.Failed = append(nm.Failed, best.misses...)
		}
		out = append(out, nm)
	}
	return out
}
