package translate

import (
	"fmt"
	"slices"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate/ir"
)

// Envoy Gateway checks a backendRef before it resolves it
// (internal/gatewayapi/validate.go validateBackendRef), in this order: the
// backendRef's own filters, its group and kind, the ReferenceGrant, the
// port, then the object and its port. Under a profile with
// StatusChoices.EnvoyBackendRefs gwsim gives the same reasons:
//   - a backendRef filter Envoy cannot apply per backend is
//     UnsupportedRefValue (validateBackendRefFilters): on an HTTPRoute,
//     anything but a header modifier, a URL rewrite without a path, or an
//     ExtensionRef to an HTTPRouteFilter; on a GRPCRoute, anything but a
//     header modifier;
//   - a group other than the core group, multicluster.x-k8s.io and
//     gateway.envoyproxy.io, or a kind other than Service, ServiceImport
//     and Backend, is InvalidKind (validateBackendRefGroup, ...Kind): EG
//     resolves no other kind, where gwsim's generic profile resolves it as
//     an implementation's own;
//   - a Service or ServiceImport backendRef without a port is
//     PortNotSpecified (validateBackendPort; a ServiceImport needs one
//     too), and one naming a port the object lacks for the route's
//     protocol is PortNotFound (validateBackendRefService,
//     validateBackendServiceImport).

// The reasons Envoy Gateway adds to the spec's for backendRefs
// (internal/gatewayapi/status/error.go).
const (
	egReasonUnsupportedRefValue = "UnsupportedRefValue"
	egReasonPortNotSpecified    = "PortNotSpecified"
	egReasonPortNotFound        = "PortNotFound"
)

// egRefusedBackendFilters returns the invalid backend of a backendRef
// whose filters Envoy Gateway refuses (UnsupportedRefValue), when route
// r's profile checks backendRefs as Envoy Gateway does; refused is false
// otherwise. Envoy Gateway checks the filters first, so their reason wins
// over any other the backendRef has.
func (w *world) egRefusedBackendFilters(r routeInfo, ref gwv1.HTTPBackendRef, field string) (b backendResult, refused bool) {
	if len(ref.Filters) == 0 || !w.routeProfile(r).Status.EnvoyBackendRefs {
		return backendResult{}, false
	}
	msg := egBackendRefFilterProblem(r.kind, ref.Filters)
	if msg == "" {
		return backendResult{}, false
	}
	ns := r.meta.Namespace
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	return backendResult{
		backend: ir.WeightedBackend{Weight: deref(ref.Weight), Invalid: egReasonUnsupportedRefValue,
			Ref: backendRefName(string(deref(ref.Group)), string(deref(ref.Kind)), ns+"/"+string(ref.Name), ref.Port)},
		reason:  egReasonUnsupportedRefValue,
		message: fmt.Sprintf("%s.%s", field, msg),
	}, true
}

// egBackendRefFilterProblem says why Envoy Gateway refuses a backendRef's
// filters on a route of kind, or "" when it takes them.
func egBackendRefFilterProblem(kind gwv1.Kind, filters []gwv1.HTTPRouteFilter) string {
	for i, f := range filters {
		switch {
		case kind == "GRPCRoute":
			if f.Type != gwv1.HTTPRouteFilterRequestHeaderModifier && f.Type != gwv1.HTTPRouteFilterResponseHeaderModifier {
				return fmt.Sprintf("filters[%d]: filter type %s is not supported within a GRPCRoute backendRef, only RequestHeaderModifier and ResponseHeaderModifier are", i, f.Type)
			}
		case f.Type == gwv1.HTTPRouteFilterURLRewrite && f.URLRewrite != nil && f.URLRewrite.Path != nil:
			return fmt.Sprintf("filters[%d]: a URLRewrite path modifier is not supported within a backendRef", i)
		case f.Type == gwv1.HTTPRouteFilterExtensionRef:
			if e := f.ExtensionRef; e == nil || string(e.Group) != profile.HTTPRouteFilterKind.Group || string(e.Kind) != profile.HTTPRouteFilterKind.Kind {
				return fmt.Sprintf("filters[%d]: an ExtensionRef within a backendRef must name a %s", i, qualifiedKind(profile.HTTPRouteFilterKind.Group, profile.HTTPRouteFilterKind.Kind))
			}
		case f.Type != gwv1.HTTPRouteFilterRequestHeaderModifier && f.Type != gwv1.HTTPRouteFilterResponseHeaderModifier &&
			f.Type != gwv1.HTTPRouteFilterURLRewrite:
			return fmt.Sprintf("filters[%d]: filter type %s is not supported within a backendRef, only RequestHeaderModifier, ResponseHeaderModifier, URLRewrite and %s are", i, f.Type,
				qualifiedKind(profile.HTTPRouteFilterKind.Group, profile.HTTPRouteFilterKind.Kind))
		}
	}
	return ""
}

// egBackendKindProblem says why Envoy Gateway refuses a backendRef's group
// or kind, or "" when it resolves them.
func egBackendKindProblem(group, kind string) string {
	switch group {
	case "", mcsv1alpha1.GroupName, profile.BackendKind.Group:
	default:
		return fmt.Sprintf("group %q is not supported: only the core group, %s and %s are", group, mcsv1alpha1.GroupName, profile.BackendKind.Group)
	}
	switch kind {
	case "Service", mcsv1alpha1.ServiceImportKindName, profile.BackendKind.Kind:
		return ""
	}
	return fmt.Sprintf("kind %q is not supported: only Service, ServiceImport and %s are", kind, qualifiedKind(profile.BackendKind.Group, profile.BackendKind.Kind))
}

// portReason is the reason for a backendRef's port problem: the spec's
// (generic), or Envoy Gateway's own under EnvoyBackendRefs.
func portReason(p profile.Profile, generic, eg string) string {
	if p.Status.EnvoyBackendRefs {
		return eg
	}
	return generic
}

// egDynamicResolver reports whether cluster c was built for an Envoy
// Gateway Backend of type DynamicResolver, whose upstream is the
// request's own host.
func (w *world) egDynamicResolver(c *ir.Cluster) bool {
	if c == nil || c.Kind != egBackendKind {
		return false
	}
	ns, name, _ := strings.Cut(c.Service, "/")
	be, ok := w.egBackends[keyOf(ns, name)]
	return ok && be.Spec.Type != nil && *be.Spec.Type == egv1a1.BackendTypeDynamicResolver
}

// egLoneResolverReject is why a rule refused for its DynamicResolver
// Backend serves nothing.
const egLoneResolverReject = "a DynamicResolver Backend beside other backends"

// egLoneResolverProblem says why Envoy Gateway refuses a rule that sends
// to a DynamicResolver Backend beside other backends (InvalidBackendRef;
// route.go processHTTPRouteRules counts the rule's backendRefs,
// processTLSRouteParentRefs its valid backends of weight above 0), when
// route r's profile checks backendRefs as Envoy Gateway does. dynamic
// says whether a valid backend of weight above 0 is a DynamicResolver,
// and others is the count Envoy Gateway compares with 1.
func (w *world) egLoneResolverProblem(r routeInfo, dynamic bool, others int, field string) (backendResult, bool) {
	if !dynamic || others <= 1 || !w.routeProfile(r).Status.EnvoyBackendRefs {
		return backendResult{}, false
	}
	return backendResult{reason: egReasonInvalidBackendRef,
		message: field + ": a DynamicResolver Backend must be the rule's only backend; Envoy Gateway refuses it beside others"}, true
}

// egRefuseAll marks every backend of a rule Envoy Gateway refuses as a
// whole invalid, keeping a reason a backend already has.
func egRefuseAll(backends []ir.WeightedBackend) {
	for i := range backends {
		if backends[i].Invalid == "" {
			backends[i].Invalid = egReasonInvalidBackendRef
		}
	}
}

// egResolverOnTerminatedTLS applies, under a profile that checks
// backendRefs as Envoy Gateway does (StatusChoices.EnvoyBackendRefs), Envoy
// Gateway's rule for a TLSRoute with a DynamicResolver Backend: the
// resolver forwards a connection by its SNI, which needs TLS passthrough,
// so on a listener that terminates TLS the route is not programmed
// (it still counts in attachedRoutes) and that parent's ResolvedRefs is
// False with UnsupportedValue (internal/gatewayapi/route.go
// processTLSRouteParentRefs).
func (w *world) egResolverOnTerminatedTLS(res *routeResult, parents []*parentResult) {
	if res.info.kind != "TLSRoute" || !w.routeProfile(res.info).Status.EnvoyBackendRefs ||
		!slices.ContainsFunc(res.clusters, w.egDynamicResolver) {
		return
	}
	for _, p := range parents {
		var kept []attachment
		for _, a := range p.attached {
			if tls := a.listener.spec.TLS; tls != nil && (tls.Mode == nil || *tls.Mode == gwv1.TLSModeTerminate) {
				p.counted = append(p.counted, a)
				continue
			}
			kept = append(kept, a)
		}
		if len(kept) == len(p.attached) {
			continue
		}
		p.attached = kept
		c := falseCond(string(gwv1.RouteConditionResolvedRefs), string(gwv1.RouteReasonUnsupportedValue),
			"a DynamicResolver Backend forwards by SNI and needs TLS passthrough; a listener of this parent terminates TLS, so the route is not served there")
		p.refs = &c
	}
}
