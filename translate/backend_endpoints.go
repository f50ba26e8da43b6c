package translate

import (
	"fmt"

	"github.com/gwsim/gwsim/diag"
)

// noReadyEndpointsFinding reports a backendRef whose Service the input
// shows without a ready endpoint on the referenced port: the Service has
// EndpointSlices in the input, and none lists a ready endpoint for it.
//
// The spec treats such a Service differently per route kind. For HTTPRoute
// it is not an invalid backendRef (HTTPBackendRef lists what is, and
// endpoints are not in the list), but a gateway SHOULD answer 503 for the
// requests sent to it; GRPCRoute says nothing, and a 503 is gRPC
// UNAVAILABLE. For TCPRoute, UDPRoute and TLSRoute the rule's backendRefs
// godoc counts "a Service with no endpoints" as invalid: its share of
// connections MUST be rejected. No kind asks for a condition.
//
// gwsim changes neither status nor the IR for it, and says so in an Info
// finding only when the input proves the Service has no ready endpoint.
// Most manifests carry no EndpointSlices at all (the cluster creates them),
// so a Service without any is assumed to have endpoints and nothing is
// said: otherwise every backend of every such input would be reported. A
// backendRef of weight 0 gets no traffic and no finding.
func (w *world) noReadyEndpointsFinding(r routeInfo, b backendResult, field string) (diag.Finding, bool) {
	c := b.cluster
	if c == nil || b.backend.Weight == 0 {
		return diag.Finding{}, false
	}
	if !c.NoReadyEndpoints {
		return diag.Finding{}, false
	}
	effect := "a gateway SHOULD answer 503 (gRPC: UNAVAILABLE) for the requests sent to it"
	switch r.kind {
	case "TCPRoute", "TLSRoute":
		effect = "the spec counts it as an invalid backend, so a gateway MUST reject the connections sent to it"
	case "UDPRoute":
		effect = "the spec counts it as an invalid backend, so a gateway MUST drop the datagrams sent to it"
	}
	return w.routeFinding(r, diag.Info, field, diag.ReasonNoReadyEndpoints, fmt.Sprintf(
		"the EndpointSlices of %s %s in the input list no ready endpoint for port %d: %s; gwsim routes to it as if it had endpoints and keeps ResolvedRefs=True",
		backendNoun(c.Kind), c.Service, c.Port, effect)), true
}
