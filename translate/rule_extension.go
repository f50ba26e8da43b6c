package translate

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// Vendor extensions: a backendRef or an ExtensionRef filter may name an
// implementation's own kind (Envoy Gateway's Backend and HTTPRouteFilter,
// nginx's SnippetsFilter). gwsim cannot simulate what such an object does,
// but it must not call a valid reference broken either. An extension
// reference resolves when the input holds the object, or when the open
// world assumes it (the input holds no object of the kind in the
// namespace); its effect is reported as not simulated, once per kind. A
// kind the input holds in that namespace, without the object named, is a
// missing object (BackendNotFound); with no open world (conformance, tests)
// an unknown kind stays unsupported (InvalidKind), as the spec requires of
// an implementation that does not support it.

// extensionKind reports whether group names an implementation's API
// group: not core, not Gateway API.
func extensionKind(group string) bool {
	return group != "" && group != gwv1.GroupName
}

// How an extension reference resolved (ir.ExtensionRef.Resolution,
// ir.Cluster.Extension): to an object in the input, to one the open world
// assumes, or to nothing.
const (
	extensionResolved   = "resolved"
	extensionAssumed    = "assumed"
	extensionUnresolved = "unresolved"
)

// resolveExtension decides a reference to an extension object at field of
// r: extensionResolved or extensionAssumed (recording what it was used
// for, for the not-simulated finding), else extensionUnresolved with the
// ResolvedRefs reason and message.
func (w *world) resolveExtension(r routeInfo, group, kind, ns, name, use, field string) (resolution, reason, msg string) {
	full := fmt.Sprintf("%s %s/%s", qualifiedKind(group, kind), ns, name)
	resolution = extensionResolved
	switch {
	case !extensionKind(group):
		return extensionUnresolved, string(gwv1.RouteReasonInvalidKind), fmt.Sprintf("%s kind %s is not supported", use, qualifiedKind(group, kind))
	case w.others[OtherObject{Group: group, Kind: kind, Namespace: ns, Name: name}]:
	case w.assume(group, kind, ns, name, "an implementation-specific object", r.ref(), field):
		resolution = extensionAssumed
	case w.opts.OpenWorld.Complete[KindNamespace{Kind: KindName(group, kind), Namespace: ns}]:
		reason := string(gwv1.RouteReasonBackendNotFound)
		if use == "filter" {
			reason = string(gwv1.RouteReasonInvalidKind)
		}
		return extensionUnresolved, reason, fmt.Sprintf("%s does not exist, though the input holds other %s objects in namespace %s", full, qualifiedKind(group, kind), ns)
	default:
		return extensionUnresolved, string(gwv1.RouteReasonInvalidKind), fmt.Sprintf("%s kind %s is not supported: it is not in the input, and gwsim simulates no implementation's own kinds", use, qualifiedKind(group, kind))
	}
	w.assumed.notSimulated(qualifiedKind(group, kind), use, resolution, r.ref().String()+" ("+field+")")
	return resolution, "", ""
}

// resolveExtensionBackend resolves a backendRef to a kind other than a core
// Service. One that resolves becomes an opaque cluster (Kind set, no
// endpoints): requests reach it, and what happens next is the
// implementation's.
func (w *world) resolveExtensionBackend(r routeInfo, ref gwv1.BackendRef, group, kind, ns, field string, weight int32) backendResult {
	resolution, reason, msg := w.resolveExtension(r, group, kind, ns, string(ref.Name), "backend", field)
	if reason != "" {
		if reason == string(gwv1.RouteReasonInvalidKind) {
			msg += "; use a core Service"
		}
		return backendResult{
			backend: ir.WeightedBackend{Weight: weight, Invalid: reason},
			reason:  reason, message: fmt.Sprintf("%s: %s", field, msg),
		}
	}
	c := ir.Cluster{Kind: qualifiedKind(group, kind), Service: ns + "/" + string(ref.Name), Extension: resolution}
	c.Name = c.Kind + "/" + c.Service
	if ref.Port != nil {
		c.Port = int32(*ref.Port)
		c.Name += fmt.Sprintf(":%d", c.Port)
	}
	return backendResult{backend: ir.WeightedBackend{Cluster: c.Name, Weight: weight}, cluster: &c}
}

// notSimulated records that an extension kind was used (as a backend or a
// filter) by the reference user, and how the reference resolved.
func (a *assumptions) notSimulated(kind, use, resolution, user string) {
	k := kind + " " + use + " " + resolution
	if !slices.Contains(a.extensions[k], user) {
		a.extensions[k] = append(a.extensions[k], user)
	}
}

// extensionFindings is one Info finding per extension kind, use and
// resolution: the object is in the input (resolved) or assumed, and in
// both cases its effect is not simulated.
func (a *assumptions) extensionFindings() []diag.Finding {
	keys := make([]string, 0, len(a.extensions))
	for k := range a.extensions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]diag.Finding, 0, len(keys))
	for _, k := range keys {
		kind, rest, _ := strings.Cut(k, " ")
		use, resolution, _ := strings.Cut(rest, " ")
		users := a.extensions[k]
		slices.Sort(users)
		effect := "gwsim forwards requests to it as an opaque backend with no endpoints it can show"
		if use == "filter" {
			effect = "gwsim passes requests through it unchanged"
		}
		how := "resolved (the objects are in the input)"
		if resolution == extensionAssumed {
			how = "assumed (the objects are not in the input)"
		}
		out = append(out, diag.Finding{
			Severity: diag.Info, Reason: diag.ReasonExtensionNotSimulated,
			Message: fmt.Sprintf("%s references to %s are %s; their effect is not simulated (%s; the real answer may differ, and explain says so): %s",
				use, kind, how, effect, strings.Join(users, ", ")),
		})
	}
	return out
}
