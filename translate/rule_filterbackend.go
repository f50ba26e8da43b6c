package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// filterBackend resolves the backend a filter sends requests to (a mirror
// or an authorization service) with the rules of every backendRef
// (resolveBackend). A valid backend's cluster is added to the route; an
// invalid one is returned as a ResolvedRefs problem, and the spec has the
// filter's traffic to it dropped.
func (w *world) filterBackend(res *routeResult, ref gwv1.BackendObjectReference, field string) (string, string, []backendResult) {
	b := w.resolveBackend(res.info, gwv1.BackendRef{BackendObjectReference: ref}, field)
	if b.reason != "" {
		return "", b.reason, []backendResult{b}
	}
	res.clusters = append(res.clusters, b.cluster)
	return b.cluster.Name, "", nil
}

// requestMirror converts a RequestMirror filter. The share mirrored is the
// percent (out of 100) or the fraction, 100% when neither is set (the
// spec's meaning, not a CRD default). The CRD defaults a fraction's
// denominator to 100; the loader applies it.
func (w *world) requestMirror(res *routeResult, f *gwv1.HTTPRequestMirrorFilter, field string) (*ir.RequestMirror, []backendResult) {
	m := &ir.RequestMirror{Numerator: 100, Denominator: 100}
	switch {
	case f.Percent != nil:
		m.Numerator = *f.Percent
	case f.Fraction != nil:
		m.Numerator, m.Denominator = f.Fraction.Numerator, deref(f.Fraction.Denominator)
	}
	var problems []backendResult
	m.Cluster, m.Invalid, problems = w.filterBackend(res, f.BackendRef, field+".requestMirror.backendRef")
	return m, problems
}

// mirrorProblem applies the API server's rules on the mirrored share: one
// of percent (0 to 100) or fraction (numerator 0 or more, denominator 1 or
// more), not both.
func mirrorProblem(f *gwv1.HTTPRequestMirrorFilter) string {
	switch {
	case f.Percent != nil && f.Fraction != nil:
		return "only one of percent or fraction may be set"
	case f.Percent != nil && (*f.Percent < 0 || *f.Percent > 100):
		return fmt.Sprintf("percent %d is not between 0 and 100", *f.Percent)
	case f.Fraction != nil && (f.Fraction.Numerator < 0 || (f.Fraction.Denominator != nil && *f.Fraction.Denominator < 1)):
		return "fraction needs a numerator of 0 or more and a denominator of 1 or more"
	}
	return ""
}

// externalAuth converts an ExternalAuth filter. Its service is resolved
// like any backendRef; when it cannot be, the filter fails closed, as the
// spec requires, which the IR records as Invalid.
func (w *world) externalAuth(res *routeResult, f *gwv1.HTTPExternalAuthFilter, field string) (*ir.ExternalAuth, []backendResult) {
	a := &ir.ExternalAuth{Protocol: string(f.ExternalAuthProtocol)}
	switch {
	case f.GRPCAuthConfig != nil:
		a.AllowedRequestHeaders = append([]string(nil), f.GRPCAuthConfig.AllowedRequestHeaders...)
	case f.HTTPAuthConfig != nil:
		a.Path = f.HTTPAuthConfig.Path
		a.AllowedRequestHeaders = append([]string(nil), f.HTTPAuthConfig.AllowedRequestHeaders...)
		a.AllowedResponseHeaders = append([]string(nil), f.HTTPAuthConfig.AllowedResponseHeaders...)
	}
	if f.ForwardBody != nil {
		a.ForwardBodyMaxSize = int(f.ForwardBody.MaxSize)
	}
	var problems []backendResult
	a.Cluster, a.Invalid, problems = w.filterBackend(res, f.BackendRef, field+".externalAuth.backendRef")
	return a, problems
}

// corsPolicy converts a CORS filter. The CRD defaults maxAge to 5 seconds;
// the loader applies it.
func corsPolicy(f *gwv1.HTTPCORSFilter) *ir.CORS {
	c := &ir.CORS{MaxAge: f.MaxAge}
	if f.AllowCredentials != nil {
		c.AllowCredentials = *f.AllowCredentials
	}
	for _, o := range f.AllowOrigins {
		c.AllowOrigins = append(c.AllowOrigins, string(o))
	}
	for _, m := range f.AllowMethods {
		c.AllowMethods = append(c.AllowMethods, string(m))
	}
	for _, h := range f.AllowHeaders {
		c.AllowHeaders = append(c.AllowHeaders, string(h))
	}
	for _, h := range f.ExposeHeaders {
		c.ExposeHeaders = append(c.ExposeHeaders, string(h))
	}
	return c
}
