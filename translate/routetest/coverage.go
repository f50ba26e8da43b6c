package routetest

import (
	"cmp"
	"math"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/ir"
	"github.com/gwsim/gwsim/translate/shadow"
)

// Coverage says how much of the route table the tests exercised. A match
// counts once however many listeners or Gateways it is attached to, and
// is exercised when it took a test's request (not when it lost on
// precedence). Only what is in the data plane counts: a route that is not
// attached can take no request, so gwsim check, not coverage, reports it.
// A match that an earlier match shadows wherever it is attached (see
// translate/shadow; check warns UnreachableMatch) can take no request
// either: it is listed as Unreachable and left out of Matches, so that no
// test can be asked to cover it.
type Coverage struct {
	// Matches is the number of route rule matches of HTTPRoutes and
	// GRPCRoutes in the data plane, and of the live TLSRoutes, TCPRoutes
	// and UDPRoutes (one each: they match a connection); Covered, those a
	// test exercised.
	Matches int `json:"matches"`
	Covered int `json:"covered"`
	// Percent is Covered of Matches, rounded down to one decimal, so that
	// it never reads 100 while a match is left; 100 when there are none.
	Percent float64 `json:"percent"`
	// Rules and RulesCovered count rules: a rule is covered when a test
	// exercised one of its matches.
	Rules        int `json:"rules"`
	RulesCovered int `json:"rulesCovered"`
	// FailUnder is the floor asked for; Below, whether Percent is under it.
	FailUnder float64 `json:"failUnder,omitempty"`
	Below     bool    `json:"below,omitempty"`
	// Uncovered are the matches no test exercised, by route, rule and match.
	Uncovered []explain.RouteStep `json:"uncovered,omitempty"`
	// Unreachable are the matches that can never receive traffic, by
	// route, rule and match.
	Unreachable []Unreachable `json:"unreachable,omitempty"`
}

// Unreachable is a dead match and the match that takes its requests (the
// first place's, when it is attached at several).
type Unreachable struct {
	explain.RouteStep
	ShadowedBy ir.Origin `json:"shadowedBy"`
}

// matchKey identifies one match of one route rule.
type matchKey struct {
	route       diag.ObjectRef
	rule, match int
}

// ruleKey identifies one route rule.
type ruleKey struct {
	route diag.ObjectRef
	rule  int
}

func keyOf(s explain.RouteStep) matchKey {
	return matchKey{route: diag.ObjectRef{Kind: s.Object.Kind, Namespace: s.Object.Namespace, Name: s.Object.Name}, rule: s.Rule, match: s.Match}
}

// coverage counts the matches of in's data plane that exercised holds.
func coverage(in explain.Input, exercised map[matchKey]bool) Coverage {
	all := dataPlaneMatches(in)
	dead := deadEverywhere(in)
	var c Coverage
	rules := map[ruleKey]bool{}
	for _, step := range all {
		k := keyOf(step)
		if w, ok := dead[k]; ok && !exercised[k] {
			c.Unreachable = append(c.Unreachable, Unreachable{RouteStep: step, ShadowedBy: w})
			continue
		}
		rk := ruleKey{route: k.route, rule: k.rule}
		c.Matches++
		rules[rk] = rules[rk] || exercised[k]
		if exercised[k] {
			c.Covered++
		} else {
			c.Uncovered = append(c.Uncovered, step)
		}
	}
	for _, covered := range rules {
		c.Rules++
		if covered {
			c.RulesCovered++
		}
	}
	c.Percent = 100
	if c.Matches > 0 {
		c.Percent = math.Floor(float64(c.Covered)*1000/float64(c.Matches)) / 10
	}
	return c
}

// deadEverywhere maps each match that is shadowed at every place it is
// attached to the match that shadows it at the first.
func deadEverywhere(in explain.Input) map[matchKey]ir.Origin {
	places := map[matchKey]int{}
	for _, g := range in.IR.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				for _, r := range vh.Routes {
					places[originKey(r.Origin)]++
				}
			}
		}
	}
	deadAt := map[matchKey]int{}
	out := map[matchKey]ir.Origin{}
	for _, s := range shadow.Find(in.IR) {
		k := originKey(s.Dead)
		if deadAt[k] == 0 {
			out[k] = s.Winner
		}
		deadAt[k]++
	}
	for k, n := range deadAt {
		if n < places[k] {
			delete(out, k)
		}
	}
	return out
}

func originKey(o ir.Origin) matchKey {
	return matchKey{route: diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}, rule: o.Rule, match: o.Match}
}

// dataPlaneMatches lists every route rule match of the IR's virtual hosts
// once, sorted by route, rule and match.
func dataPlaneMatches(in explain.Input) []explain.RouteStep {
	names := ruleNames(in)
	seen := map[matchKey]bool{}
	var out []explain.RouteStep
	add := func(o ir.Origin, m ir.Match) {
		ref := diag.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
		k := matchKey{route: ref, rule: o.Rule, match: o.Match}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, explain.RouteStep{
			Object: explain.Ref{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Source: in.Sources.Of(ref).String()},
			Rule:   o.Rule, RuleName: names[ruleKey{route: ref, rule: o.Rule}], Match: o.Match, Spec: m,
		})
	}
	for _, g := range in.IR.Gateways {
		for _, l := range g.Listeners {
			for _, vh := range l.VirtualHosts {
				for _, r := range vh.Routes {
					add(r.Origin, r.Match)
				}
			}
			// TLSRoutes, TCPRoutes and UDPRoutes have one rule that
			// matches a connection; one that another supersedes takes none.
			for _, r := range slices.Concat(l.TLSRoutes, l.Forward) {
				if r.SupersededBy == nil {
					add(r.Origin, ir.Match{})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b explain.RouteStep) int {
		ka, kb := keyOf(a), keyOf(b)
		return cmp.Or(ka.route.Compare(kb.route), cmp.Compare(ka.rule, kb.rule), cmp.Compare(ka.match, kb.match))
	})
	return out
}

// ruleNames maps each named rule of the input's routes to its name.
func ruleNames(in explain.Input) map[ruleKey]string {
	out := map[ruleKey]string{}
	add := func(kind, ns, name string, i int, n *gwv1.SectionName) {
		if n != nil {
			out[ruleKey{route: diag.ObjectRef{Kind: kind, Namespace: ns, Name: name}, rule: i}] = string(*n)
		}
	}
	for _, r := range in.HTTPRoutes {
		for i, rule := range r.Spec.Rules {
			add("HTTPRoute", r.Namespace, r.Name, i, rule.Name)
		}
	}
	for _, r := range in.GRPCRoutes {
		for i, rule := range r.Spec.Rules {
			add("GRPCRoute", r.Namespace, r.Name, i, rule.Name)
		}
	}
	return out
}
