package translate

import gwv1 "sigs.k8s.io/gateway-api/apis/v1"

// HTTPRouteBackendRefs returns every object an HTTPRoute sends traffic to,
// in spec order: the backendRefs of every rule and the targets of
// requestMirror and externalAuth filters at rule and backendRef level.
// The controller gathers them (a target not gathered would read as
// missing) and the envoy-gateway profile writes the status of the
// Backends among them.
func HTTPRouteBackendRefs(r *gwv1.HTTPRoute) []gwv1.BackendObjectReference {
	var out []gwv1.BackendObjectReference
	targets := func(fs []gwv1.HTTPRouteFilter) {
		for _, f := range fs {
			if f.RequestMirror != nil {
				out = append(out, f.RequestMirror.BackendRef)
			}
			if f.ExternalAuth != nil {
				out = append(out, f.ExternalAuth.BackendRef)
			}
		}
	}
	for _, rule := range r.Spec.Rules {
		targets(rule.Filters)
		for _, ref := range rule.BackendRefs {
			out = append(out, ref.BackendObjectReference)
			targets(ref.Filters)
		}
	}
	return out
}

// GRPCRouteBackendRefs is HTTPRouteBackendRefs for GRPCRoute, whose
// filters are a type of their own.
func GRPCRouteBackendRefs(r *gwv1.GRPCRoute) []gwv1.BackendObjectReference {
	var out []gwv1.BackendObjectReference
	mirrors := func(fs []gwv1.GRPCRouteFilter) {
		for _, f := range fs {
			if f.RequestMirror != nil {
				out = append(out, f.RequestMirror.BackendRef)
			}
		}
	}
	for _, rule := range r.Spec.Rules {
		mirrors(rule.Filters)
		for _, ref := range rule.BackendRefs {
			out = append(out, ref.BackendObjectReference)
			mirrors(ref.Filters)
		}
	}
	return out
}

// PlainBackendRefs returns the backendRefs of route kinds whose rules hold
// plain BackendRefs (TLS, TCP and UDP routes), in spec order.
func PlainBackendRefs[R any](rules []R, refs func(R) []gwv1.BackendRef) []gwv1.BackendObjectReference {
	var out []gwv1.BackendObjectReference
	for _, rule := range rules {
		for _, ref := range refs(rule) {
			out = append(out, ref.BackendObjectReference)
		}
	}
	return out
}
