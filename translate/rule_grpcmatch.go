package translate

import (
	"fmt"
	"regexp"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/ir"
)

// The CRD's CEL patterns for Exact service and method names.
var (
	grpcServiceNameRE = regexp.MustCompile(`^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$`)
	grpcMethodNameRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`)
)

// anySegment matches one path segment: any service, or any method.
const anySegment = "[^/]+"

// grpcMatches converts a rule's matches into matches on the HTTP/2 request
// a gRPC call is: a POST to ":path" /<service>/<method>. With no matches the
// rule matches every request, as the spec requires. It also returns, per
// match, the service and method that precedence ranks by, and the first
// match the API server would refuse, which makes the rule invalid.
func grpcMatches(matches []gwv1.GRPCRouteMatch, field string) ([]ir.Match, []grpcMethodKey, ruleProblem) {
	if len(matches) == 0 {
		return []ir.Match{{PathType: string(gwv1.PathMatchPathPrefix), Path: "/"}}, []grpcMethodKey{{}}, ruleProblem{}
	}
	out := make([]ir.Match, len(matches))
	keys := make([]grpcMethodKey, len(matches))
	var invalid ruleProblem
	for i, m := range matches {
		var problem string
		out[i], keys[i], problem = grpcMatch(m)
		if problem != "" && invalid.reason == "" {
			invalid = ruleProblem{string(gwv1.RouteReasonUnsupportedValue), fmt.Sprintf("%s.matches[%d]: %s", field, i, problem)}
		}
	}
	return out, keys, invalid
}

// grpcMatch converts one GRPCRouteMatch, or says why it is invalid. The
// method match becomes a path match:
//
//	Exact, service and method   Exact             /<service>/<method>
//	Exact, service only         PathPrefix        /<service>          (whole segment: every method)
//	Exact, method only          RegularExpression /[^/]+/<method>     (any service)
//	RegularExpression           RegularExpression /(?:<service>)/(?:<method>), [^/]+ for an omitted side
//	no method match             PathPrefix        /
//
// Headers convert as on an HTTPRoute. The CRD defaults method and header
// match types to Exact; the loader applies it.
func grpcMatch(m gwv1.GRPCRouteMatch) (ir.Match, grpcMethodKey, string) {
	im := ir.Match{PathType: string(gwv1.PathMatchPathPrefix), Path: "/"}
	var key grpcMethodKey
	if mm := m.Method; mm != nil {
		key.service, key.method = deref(mm.Service), deref(mm.Method)
		var problem string
		im.PathType, im.Path, problem = grpcMethodPath(deref(mm.Type), key.service, key.method)
		if problem != "" {
			return ir.Match{}, grpcMethodKey{}, problem
		}
	}
	for _, h := range m.Headers {
		t := deref(h.Type)
		if t != gwv1.GRPCHeaderMatchExact && t != gwv1.GRPCHeaderMatchRegularExpression {
			return ir.Match{}, grpcMethodKey{}, fmt.Sprintf("header match type %q is not supported", t)
		}
		im.Headers = append(im.Headers, ir.ValueMatch{Name: string(h.Name), Type: string(t), Value: h.Value})
	}
	return im, key, ""
}

// grpcMethodPath is the path match of a method match (see grpcMatch).
func grpcMethodPath(typ gwv1.GRPCMethodMatchType, service, method string) (pathType, path, problem string) {
	if service == "" && method == "" {
		return "", "", "a method match needs a service or a method (the CRD requires one)"
	}
	switch typ {
	case gwv1.GRPCMethodMatchExact:
		if service != "" && !grpcServiceNameRE.MatchString(service) {
			return "", "", fmt.Sprintf("service %q is not a valid gRPC service name (the CRD requires %s)", service, grpcServiceNameRE)
		}
		if method != "" && !grpcMethodNameRE.MatchString(method) {
			return "", "", fmt.Sprintf("method %q is not a valid gRPC method name (the CRD requires %s)", method, grpcMethodNameRE)
		}
		switch {
		case method == "":
			return string(gwv1.PathMatchPathPrefix), "/" + service, ""
		case service == "":
			return string(gwv1.PathMatchRegularExpression), "/" + anySegment + "/" + regexp.QuoteMeta(method), ""
		}
		return string(gwv1.PathMatchExact), "/" + service + "/" + method, ""
	case gwv1.GRPCMethodMatchRegularExpression:
		path := "/" + regexSegment(service) + "/" + regexSegment(method)
		if _, err := regexp.Compile(path); err != nil {
			return "", "", fmt.Sprintf("the method match is not a valid RE2 regular expression: %v", err)
		}
		return string(gwv1.PathMatchRegularExpression), path, ""
	}
	return "", "", fmt.Sprintf("method match type %q is not supported", typ)
}

func regexSegment(re string) string {
	if re == "" {
		return anySegment
	}
	return "(?:" + re + ")"
}
