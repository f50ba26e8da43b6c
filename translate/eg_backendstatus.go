package translate

import (
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/profile"
)

// Envoy Gateway writes one condition on each Backend its controller reads
// (the Backends that backendRefs of its Gateways' routes and the telemetry
// of its EnvoyProxies name, internal/provider/kubernetes
// processBackendRefs, processEnvoyProxy): Accepted True with
// reason Accepted, or, for a Backend it refuses, a condition whose type is
// Invalid and whose reason is Accepted (status/backend.go passes the
// reason constant as the type and the type constant as the reason). The
// profile writes the same, so that a tool reading EG's status reads gwsim's.
const (
	egBackendAcceptedMessage = "The Backend was accepted"
	egBackendInvalidType     = string(egv1a1.BackendReasonInvalid)
	egBackendAcceptedReason  = string(egv1a1.BackendReasonAccepted)
)

// egBackendStatuses returns the status of each Backend of the input that a
// backendRef (or a filter's target) of a route whose profile simulates
// Backends names, or the telemetry of an EnvoyProxy such a class or its
// Gateways take as parameters (egProxyBackends).
func (w *world) egBackendStatuses() map[types.NamespacedName]egv1a1.BackendStatus {
	out := map[types.NamespacedName]egv1a1.BackendStatus{}
	if len(w.egBackends) == 0 {
		return out
	}
	visit := func(r routeInfo, refs []gwv1.BackendObjectReference) {
		if !w.routeProfile(r).Simulates(profile.BackendKind) {
			return
		}
		for _, ref := range refs {
			if string(deref(ref.Group)) != profile.BackendKind.Group || string(deref(ref.Kind)) != profile.BackendKind.Kind {
				continue
			}
			ns := r.meta.Namespace
			if ref.Namespace != nil && *ref.Namespace != "" {
				ns = string(*ref.Namespace)
			}
			key := keyOf(ns, string(ref.Name))
			if _, done := out[key]; done {
				continue
			}
			if be, ok := w.egBackends[key]; ok {
				out[key] = w.egBackendStatus(be)
			}
		}
	}
	for _, r := range w.in.HTTPRoutes {
		visit(routeInfo{kind: "HTTPRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}, HTTPRouteBackendRefs(r))
	}
	for _, r := range w.in.GRPCRoutes {
		visit(routeInfo{kind: "GRPCRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}, GRPCRouteBackendRefs(r))
	}
	for _, r := range w.in.TLSRoutes {
		visit(routeInfo{kind: "TLSRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}, PlainBackendRefs(r.Spec.Rules, func(x gwv1.TLSRouteRule) []gwv1.BackendRef { return x.BackendRefs }))
	}
	for _, r := range w.in.TCPRoutes {
		visit(routeInfo{kind: "TCPRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}, PlainBackendRefs(r.Spec.Rules, func(x gwv1.TCPRouteRule) []gwv1.BackendRef { return x.BackendRefs }))
	}
	for _, r := range w.in.UDPRoutes {
		visit(routeInfo{kind: "UDPRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs}, PlainBackendRefs(r.Spec.Rules, func(x gwv1.UDPRouteRule) []gwv1.BackendRef { return x.BackendRefs }))
	}
	for _, key := range w.egProxyBackends() {
		if be, ok := w.egBackends[key]; ok {
			if _, done := out[key]; !done {
				out[key] = w.egBackendStatus(be)
			}
		}
	}
	return out
}

// egBackendStatus is the status Envoy Gateway writes on a Backend.
func (w *world) egBackendStatus(be *egv1a1.Backend) egv1a1.BackendStatus {
	c := trueCond(string(egv1a1.BackendConditionAccepted), egBackendAcceptedReason, egBackendAcceptedMessage)
	if _, msg := egBackendInvalid(be, w.in.BackendTLSPolicies); msg != "" {
		c = falseCond(egBackendInvalidType, egBackendAcceptedReason, "The Backend was not accepted: "+msg)
	}
	return egv1a1.BackendStatus{Conditions: stamp([]condition{c}, be.Generation, w.opts.Now)}
}
