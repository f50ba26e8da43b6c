package translate

import (
	"fmt"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// l4Rule is the one rule of a TLSRoute, TCPRoute or UDPRoute: the weighted
// backends connections go to, and why every connection is rejected when no
// backend can take any.
type l4Rule struct {
	backends []ir.WeightedBackend
	reject   string
}

func (w *world) translateTCPRoute(r *gwv1.TCPRoute) *routeResult {
	rules := make([][]gwv1.BackendRef, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = rule.BackendRefs
	}
	info := routeInfo{kind: "TCPRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}
	return w.translateL4Route(info, r.Generation, rules)
}

func (w *world) translateUDPRoute(r *gwv1.UDPRoute) *routeResult {
	rules := make([][]gwv1.BackendRef, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = rule.BackendRefs
	}
	info := routeInfo{kind: "UDPRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}
	return w.translateL4Route(info, r.Generation, rules)
}

// translateL4Route translates what the connection-level kinds share; rules
// holds each rule's backendRefs. The three kinds allow exactly one rule
// (spec.rules minItems and maxItems 1), so the API server never stores
// another count; gwsim still reads such manifests, says so with an error
// finding, rejects every connection when there is no rule and simulates
// rules[0] alone when there are more.
func (w *world) translateL4Route(info routeInfo, generation int64, rules [][]gwv1.BackendRef) *routeResult {
	res := &routeResult{generation: generation, info: info}
	var problems []backendResult
	switch {
	case len(rules) == 0:
		res.findings = append(res.findings, w.routeFinding(info, diag.Error, "spec.rules", string(gwv1.RouteReasonUnsupportedValue),
			fmt.Sprintf("%s needs exactly one rule and the API server rejects it without one; gwsim rejects every connection", info.kind)))
		res.l4 = &l4Rule{reject: "no rules"}
	default:
		if len(rules) > 1 {
			res.findings = append(res.findings, w.routeFinding(info, diag.Error, "spec.rules", string(gwv1.RouteReasonUnsupportedValue),
				fmt.Sprintf("%s allows one rule and the API server rejects %d; gwsim simulates spec.rules[0] only", info.kind, len(rules))))
		}
		res.l4, problems = w.l4Backends(res, rules[0], "spec.rules[0]")
	}
	res.refs = resolvedRefsCondition(append(problems, res.unmetTLS...))
	return res
}

// l4Backends resolves a rule's backendRefs. The spec rejects the share of
// connections an invalid backend would get (drops that share of UDP
// packets), and every connection when no backend can take any: none listed,
// all invalid, or all of weight 0.
func (w *world) l4Backends(res *routeResult, refs []gwv1.BackendRef, field string) (*l4Rule, []backendResult) {
	rule := &l4Rule{}
	var problems []backendResult
	var usable int32
	weighted, dynamic := 0, false
	for j, ref := range refs {
		bf := field + ".backendRefs[" + strconv.Itoa(j) + "]"
		b := w.resolveBackend(res.info, ref, bf)
		if b.reason != "" {
			problems = append(problems, b)
		} else {
			usable += w.useBackend(res, b, bf)
			if b.backend.Weight > 0 {
				weighted++
				dynamic = dynamic || w.egDynamicResolver(b.cluster)
			}
		}
		rule.backends = append(rule.backends, b.backend)
	}
	if p, ok := w.egLoneResolverProblem(res.info, dynamic, weighted, field); ok {
		egRefuseAll(rule.backends)
		rule.reject = egLoneResolverReject
		return rule, append(problems, p)
	}
	if usable == 0 {
		rule.reject = noUsableBackend(len(refs))
	}
	return rule, problems
}

// servicePortIndex finds the Service port a backendRef of a route of the
// given kind names, or -1. A Service may expose one port number over TCP and
// UDP (DNS does): a UDPRoute takes the UDP port, every other kind the TCP
// one (a Service port without protocol is TCP).
func servicePortIndex(ports []corev1.ServicePort, port int32, kind gwv1.Kind) int {
	want := corev1.ProtocolTCP
	if kind == "UDPRoute" {
		want = corev1.ProtocolUDP
	}
	return slices.IndexFunc(ports, func(p corev1.ServicePort) bool {
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		return p.Port == port && proto == want
	})
}

// portNoun names the kind of Service port a route needs, for messages.
func portNoun(kind gwv1.Kind) string {
	if kind == "UDPRoute" {
		return "UDP port"
	}
	return "port"
}
