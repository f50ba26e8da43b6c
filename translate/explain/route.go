package explain

import (
	"cmp"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/ir"
)

// route is what an explanation needs of an HTTPRoute or GRPCRoute.
type route struct {
	ref        diag.ObjectRef
	created    metav1.Time
	parentRefs []gwv1.ParentReference
	hostnames  []string
	ruleNames  []string
	// matches are an HTTPRoute's matches, rule by rule, as
	// translate.HTTPMatches converts them: what a route that is not
	// attached would match if it were. nil for GRPCRoutes, whose conversion lives in translate alone.
	matches [][]ir.Match
	// grpc are a GRPCRoute's service and method names, rule by rule and
	// match by match, which its precedence ranks by.
	grpc [][]grpcKey
	// backends are each rule's backendRefs, in the order the IR lists
	// them: the IR leaves out what an invalid backendRef names.
	backends [][]backendRef
}

// backendRef is the object and port a backendRef names.
type backendRef struct {
	ref  diag.ObjectRef
	port int32
}

// newBackendRef names what b refers to. The CRD defaults a backendRef's
// kind to Service; the loader applies it.
func newBackendRef(routeNS string, b gwv1.BackendRef) backendRef {
	out := backendRef{ref: diag.ObjectRef{
		Kind:      string(deref(b.Kind)),
		Namespace: cmp.Or(deref(b.Namespace), routeNS),
		Name:      string(b.Name),
	}}
	if b.Port != nil {
		out.port = int32(*b.Port)
	}
	return out
}

// grpcKey is the service and method a GRPCRoute match names; empty means
// any.
type grpcKey struct{ service, method string }

func httpRoute(r *gwv1.HTTPRoute) *route {
	out := &route{
		ref:        diag.ObjectRef{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name},
		created:    r.CreationTimestamp,
		parentRefs: r.Spec.ParentRefs,
		hostnames:  hostnames(r.Spec.Hostnames),
	}
	for _, rule := range r.Spec.Rules {
		out.ruleNames = append(out.ruleNames, sectionName(rule.Name))
		out.matches = append(out.matches, translate.HTTPMatches(rule.Matches))
		var bs []backendRef
		for _, b := range rule.BackendRefs {
			bs = append(bs, newBackendRef(r.Namespace, b.BackendRef))
		}
		out.backends = append(out.backends, bs)
	}
	return out
}

func grpcRoute(r *gwv1.GRPCRoute) *route {
	out := &route{
		ref:        diag.ObjectRef{Kind: "GRPCRoute", Namespace: r.Namespace, Name: r.Name},
		created:    r.CreationTimestamp,
		parentRefs: r.Spec.ParentRefs,
		hostnames:  hostnames(r.Spec.Hostnames),
	}
	for _, rule := range r.Spec.Rules {
		out.ruleNames = append(out.ruleNames, sectionName(rule.Name))
		keys := []grpcKey{{}}
		if len(rule.Matches) > 0 {
			keys = keys[:0]
		}
		for _, m := range rule.Matches {
			var k grpcKey
			if m.Method != nil {
				k = grpcKey{service: deref(m.Method.Service), method: deref(m.Method.Method)}
			}
			keys = append(keys, k)
		}
		out.grpc = append(out.grpc, keys)
		var bs []backendRef
		for _, b := range rule.BackendRefs {
			bs = append(bs, newBackendRef(r.Namespace, b.BackendRef))
		}
		out.backends = append(out.backends, bs)
	}
	return out
}

// ruleName returns the name of rule i, empty when it has none.
func (r *route) ruleName(i int) string {
	if i < len(r.ruleNames) {
		return r.ruleNames[i]
	}
	return ""
}

// backendRef returns backendRef j of rule i, if the route has it.
func (r *route) backendRef(i, j int) (backendRef, bool) {
	if i < len(r.backends) && j < len(r.backends[i]) {
		return r.backends[i][j], true
	}
	return backendRef{}, false
}

// grpcKey returns the service and method of match j of rule i.
func (r *route) grpcKey(i, j int) grpcKey {
	if i < len(r.grpc) && j < len(r.grpc[i]) {
		return r.grpc[i][j]
	}
	return grpcKey{}
}

func sortRoutes(rs []*route) {
	slices.SortFunc(rs, func(a, b *route) int { return a.ref.Compare(b.ref) })
}

func hostnames(hs []gwv1.Hostname) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = string(h)
	}
	return out
}

func sectionName(n *gwv1.SectionName) string {
	if n == nil {
		return ""
	}
	return string(*n)
}

func deref[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}
