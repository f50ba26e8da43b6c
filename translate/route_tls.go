package translate

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// translateTLSRoute translates a TLSRoute. Its spec.hostnames are SNI
// names: the shared attachment intersects them with the listener hostname
// exactly as for HTTPRoute (NoMatchingListenerHostname when none
// intersects), and the intersection becomes the SNI of the route's filter
// chain. Only TLS listeners carry TLSRoutes (see protocolKinds): on an HTTP
// or HTTPS listener the route is NotAllowedByListeners, which is what the
// conformance test TLSRouteInvalidNoMatchingListener expects (the godoc's
// "UnsupportedValue" for that case is not what the suite checks). Both TLS
// modes are simulated: Passthrough forwards the encrypted stream,
// Terminate forwards the decrypted one; the IR's TLS settings say which.
func (w *world) translateTLSRoute(r *gwv1.TLSRoute) *routeResult {
	rules := make([][]gwv1.BackendRef, len(r.Spec.Rules))
	for i, rule := range r.Spec.Rules {
		rules[i] = rule.BackendRefs
	}
	info := routeInfo{kind: "TLSRoute", meta: &r.ObjectMeta, parentRefs: r.Spec.ParentRefs, hostnames: r.Spec.Hostnames}
	return w.translateL4Route(info, r.Generation, rules)
}
