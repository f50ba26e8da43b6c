package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
)

// Envoy Gateway's merged Gateways (EnvoyProxy spec.mergeGateways, read
// from the GatewayClass's parametersRef): every Gateway of the class is
// served by one Envoy fleet, so their listeners share ports. Its
// translator then requires each (protocol, hostname, port) to be unique
// across those Gateways (internal/gatewayapi/validate.go
// validateConflictedMergedListeners): walking the Gateways in order, the
// first listener of a tuple keeps it and a later one is Conflicted with
// HostnameConflict. Listeners invalid on their own take no part (a
// listener that cannot be served takes no tuple). OverlappingTLSConfig is
// decided across the merged listeners as well. A Gateway's
// infrastructure.parametersRef does not turn merging on or off: with
// merging on, Envoy Gateway ignores it (contexts.go).

// mergesGateways reports whether class c's parametersRef names an
// EnvoyProxy of the input with mergeGateways set, under a profile that
// reads EnvoyProxy.
func (w *world) mergesGateways(gr *gatewayResult) bool {
	ref := gr.class.Spec.ParametersRef
	if ref == nil || ref.Namespace == nil || !ProfileOf(w.opts, gr.class).Simulates(profile.EnvoyProxyKind) ||
		string(ref.Group) != profile.EnvoyProxyKind.Group || string(ref.Kind) != profile.EnvoyProxyKind.Kind {
		return false
	}
	ep, ok := w.egProxies[keyOf(string(*ref.Namespace), ref.Name)]
	return ok && ep.Spec.MergeGateways != nil && *ep.Spec.MergeGateways
}

// markMergedGateways applies the merged-Gateway rule to the Gateways of
// every class that merges them, then settles their listeners again.
func (w *world) markMergedGateways(gateways map[types.NamespacedName]*gatewayResult) {
	byClass := map[string][]*gatewayResult{}
	for _, gr := range gateways {
		if w.mergesGateways(gr) {
			byClass[gr.class.Name] = append(byClass[gr.class.Name], gr)
		}
	}
	for _, group := range byClass {
		if len(group) < 2 {
			continue
		}
		slices.SortFunc(group, func(a, b *gatewayResult) int {
			ta, tb := a.gateway.CreationTimestamp, b.gateway.CreationTimestamp
			return cmp.Or(ta.Compare(tb.Time), cmp.Compare(a.gateway.Namespace, b.gateway.Namespace), cmp.Compare(a.gateway.Name, b.gateway.Name))
		})
		markMergedConflicts(group)
		// TLS listeners of the merged Gateways share ports, so their
		// hostnames and certificates overlap across Gateways too.
		var all []*listenerResult
		names := make([]string, len(group))
		for i, gr := range group {
			all = append(all, gr.listeners...)
			names[i] = gr.name()
		}
		markOverlappingTLS(all, strings.Join(names, " or ")+" (merged: EnvoyProxy mergeGateways)")
	}
}

// markMergedConflicts walks the listeners of merged Gateways in order and
// conflicts each later holder of a (protocol, hostname, port) tuple.
func markMergedConflicts(group []*gatewayResult) {
	type holder struct{ gateway, listener string }
	taken := map[string]holder{}
	for _, gr := range group {
		for _, r := range gr.listeners {
			if !servable(r) {
				continue
			}
			tuple := fmt.Sprintf("%s:%s:%d", r.spec.Protocol, hostnameOf(r.spec.Hostname), r.spec.Port)
			first, ok := taken[tuple]
			if !ok {
				taken[tuple] = holder{gr.name(), string(r.spec.Name)}
				continue
			}
			if r.problems.conflictReason == "" {
				r.problems.conflictReason = string(gwv1.ListenerReasonHostnameConflict)
				r.problems.conflictMsg = fmt.Sprintf("listener %s of Gateway %s, merged into the same data plane (EnvoyProxy mergeGateways), "+
					"takes port %d, protocol %s and hostname %q first; give this listener another hostname or port",
					first.listener, first.gateway, r.spec.Port, r.spec.Protocol, hostnameOf(r.spec.Hostname))
				r.settle()
			}
		}
	}
}

// servable reports whether a listener is valid on its own: a supported
// protocol, and route kinds and certificates that resolve.
func servable(r *listenerResult) bool {
	if r.envoy {
		return r.envoySpecValid()
	}
	return r.problems.acceptedReason == "" && r.problems.refsReason == ""
}

// readEnvoyProxy says what gwsim reads of the EnvoyProxy a class's
// parametersRef p names, for its info finding, or "" when the class's
// profile does not read EnvoyProxy or p names none of the input.
func (w *world) readEnvoyProxy(c *gwv1.GatewayClass, p parametersRef) string {
	if p.group != profile.EnvoyProxyKind.Group || p.kind != profile.EnvoyProxyKind.Kind || !ProfileOf(w.opts, c).Simulates(profile.EnvoyProxyKind) {
		return ""
	}
	ep, ok := w.egProxies[keyOf(p.ns, p.name)]
	if !ok {
		return ""
	}
	merge := "does not set mergeGateways: each Gateway of the class is a data plane of its own"
	if ep.Spec.MergeGateways != nil && *ep.Spec.MergeGateways {
		merge = "sets mergeGateways: the Gateways of the class are one data plane, whose listeners gwsim decides together"
	}
	return fmt.Sprintf("%s resolves and %s; gwsim checks its telemetry sinks, backendRefs and access log matches as Envoy Gateway does, and does not simulate its other settings (proxy deployment, telemetry output, ...)", p.describe(), merge)
}
