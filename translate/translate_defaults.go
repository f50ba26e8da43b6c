package translate

// Translate applies none of the Gateway API defaults itself: the CRDs are
// the one source of them. Every object that reaches Translate has been
// defaulted by the API server's own library against its CRD (offline/load
// for manifests, with --validate=false too; offline/defaulting for objects
// built in Go, such as the conformance harness's and tests'), so a field
// the CRD defaults (a parentRef's group and kind, a backendRef's group,
// kind and weight, a listener's allowedRoutes and tls.mode, a match's path
// and type, a redirect's status code, ...) is never nil here.
//
// Code reads such a field through deref, which makes an object built
// without the defaults safe to translate (a nil field reads as empty, never
// as a guess at the default) rather than a crash. Where the spec gives an
// unset field with no CRD default a meaning (a parentRef without a
// namespace is in the route's, a listener without allowedRoutes.kinds takes
// its protocol's kinds, an explicit empty matches list matches every
// request), the code says so where it applies it: that is semantics, not
// defaulting.

// deref is *p, or the zero value when p is nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
