package translate

import (
	"github.com/gwsim/gwsim/translate/egpolicy"
	"github.com/gwsim/gwsim/translate/graph"
	"github.com/gwsim/gwsim/translate/ir"
)

// egPolicies draws Envoy Gateway's policies with an edge to each target
// they attach to or are refused at (the edge then carries the refusal);
// a policy that attaches to nothing is drawn alone, with its problem.
func (b *graphBuilder) egPolicies(out Output) {
	res := out.EGPolicies
	if res == nil {
		return
	}
	for i := range res.Policies {
		p := &res.Policies[i]
		node := graph.Node{ID: string(p.Kind) + "/" + p.Namespace + "/" + p.Name, Kind: string(p.Kind), Name: p.Namespace + "/" + p.Name}
		if _, ok := res.Ancestors[p.Kind][p.Key()]; !ok {
			node.Problem = "attaches to nothing"
		}
		id := b.node(node)
		for _, a := range res.Attachments {
			if a.Policy == p {
				b.egPolicyEdge(id, a.Level, a.Target, "")
			}
		}
		for _, r := range res.Refusals {
			if r.Policy == p {
				b.egPolicyEdge(id, levelOf(r.Target), r.Target, "Accepted=False ("+r.Problem.Reason+")")
			}
		}
	}
}

func levelOf(t egpolicy.Target) egpolicy.Level {
	switch {
	case t.Kind == "Gateway" && t.Section != "":
		return egpolicy.LevelListener
	case t.Kind == "Gateway":
		return egpolicy.LevelGateway
	case t.Kind == "ListenerSet" && t.Section != "":
		return egpolicy.LevelListenerSetListener
	case t.Kind == "ListenerSet":
		return egpolicy.LevelListenerSet
	case t.Section != "":
		return egpolicy.LevelRouteRule
	}
	return egpolicy.LevelRoute
}

// egPolicyEdge joins a policy to the node of its target, when the graph
// draws that node (a section of a ListenerSet is drawn as the ListenerSet,
// a route rule as its route with the rule as the label).
func (b *graphBuilder) egPolicyEdge(from string, level egpolicy.Level, t egpolicy.Target, problem string) {
	key := t.Namespace + "/" + t.Name
	to, label := "", ""
	switch level {
	case egpolicy.LevelGateway:
		to = gatewayNodeID(key)
	case egpolicy.LevelListener:
		to = listenerNodeID(key, t.Section)
	case egpolicy.LevelListenerSet, egpolicy.LevelListenerSetListener:
		to, label = graph.KindListenerSet+"/"+key, t.Section
	case egpolicy.LevelRoute, egpolicy.LevelRouteRule:
		to, label = routeNodeID(ir.Origin{Kind: t.Kind, Namespace: t.Namespace, Name: t.Name}), t.Section
	}
	if _, ok := b.nodes[to]; !ok {
		return
	}
	if label != "" {
		label = "section " + label
	}
	b.edge(graph.Edge{From: from, To: to, Kind: graph.EdgePolicy, Label: label, Problem: problem})
}
