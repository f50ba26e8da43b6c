package translate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// ConditionFindings turns every unhealthy condition in the objects' status
// into an Error finding: Accepted, ResolvedRefs or Programmed False, or
// Conflicted or PartiallyInvalid True, on GatewayClasses, Gateways, routes
// (per parent) and BackendTLSPolicies (per ancestor). A listener's
// OverlappingTLSConfig True, which leaves it serving, is a Warning. It reads status as a cluster would
// show it after the controller settled, so `check` fails exactly when
// `kubectl get` would show a problem. A listener or route parent reports its
// most telling condition once, not every condition that follows from it.
func ConditionFindings(objs []client.Object, sources diag.Sources) []diag.Finding {
	var out []diag.Finding
	for _, o := range objs {
		ref := diag.ObjectRef{Kind: o.GetObjectKind().GroupVersionKind().Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
		// at is the spec entry a status entry is about: a listener, a
		// parentRef, or none (the object's status as a whole).
		finding := func(sev diag.Severity, field, at string, c *metav1.Condition) {
			out = append(out, diag.Finding{
				Severity: sev, Object: ref, Source: sources.Of(ref), Field: field, Reason: c.Reason,
				Message: fmt.Sprintf("%s=%s (%s): %s", c.Type, c.Status, c.Reason, c.Message),
				Locus:   diag.Locus{Field: conditionLocus(at, c.Message)},
			})
		}
		emit := func(field, at string, c *metav1.Condition) { finding(diag.Error, field, at, c) }
		warn := func(field, at string, c *metav1.Condition) { finding(diag.Warning, field, at, c) }
		switch t := o.(type) {
		case *gwv1.GatewayClass:
			ref.Kind = "GatewayClass"
			if c := firstUnhealthy(t.Status.Conditions); c != nil {
				emit("status", "", c)
			}
		case *gwv1.Gateway:
			ref.Kind = "Gateway"
			gatewayFindings(t, emit)
			names := gatewayListenerNames(t)
			for _, l := range t.Status.Listeners {
				overlapFinding(l.Name, names, l.Conditions, warn)
			}
		case *gwv1.BackendTLSPolicy:
			ref.Kind = "BackendTLSPolicy"
			seen := map[string]bool{}
			for _, a := range t.Status.Ancestors {
				c := firstUnhealthy(a.Conditions)
				if c == nil || seen[c.Type+c.Message] {
					continue
				}
				seen[c.Type+c.Message] = true
				emit(fmt.Sprintf("status.ancestors[%s]", parentRefString(a.AncestorRef)), backendTLSLocus(c), c)
			}
		case *gwv1.ListenerSet:
			ref.Kind = "ListenerSet"
			listenerSetFindings(t, emit)
			names := listenerEntryNames(t)
			for _, l := range t.Status.Listeners {
				overlapFinding(l.Name, names, l.Conditions, warn)
			}
		default:
			kind, specRefs, parents := routeParents(o)
			if kind == "" {
				continue
			}
			ref.Kind = kind
			seen := map[string]bool{}
			for _, p := range parents {
				c := firstUnhealthy(p.Conditions)
				if c == nil || seen[c.Type+c.Message] {
					continue
				}
				seen[c.Type+c.Message] = true
				emit(fmt.Sprintf("status.parents[%s]", parentRefString(p.ParentRef)), parentRefField(specRefs, p.ParentRef), c)
			}
		}
	}
	return diag.Sort(out)
}

// gatewayFindings reports the Gateway's unhealthy listeners, and its own
// most telling condition when no listener explains it. A ResolvedRefs
// problem of the Gateway's own references (spec.tls.backend) is reported
// even then: no listener condition shows it.
func gatewayFindings(g *gwv1.Gateway, emit func(string, string, *metav1.Condition)) {
	reported := false
	names := gatewayListenerNames(g)
	for _, l := range g.Status.Listeners {
		if c := firstUnhealthy(l.Conditions); c != nil {
			emit(fmt.Sprintf("status.listeners[%s]", l.Name), listenerField(names, l.Name), c)
			reported = true
		}
	}
	if c := firstUnhealthy(g.Status.Conditions); c != nil && !reported {
		emit("status", "", c)
		return
	}
	c := meta.FindStatusCondition(g.Status.Conditions, string(gwv1.GatewayConditionResolvedRefs))
	if reported && c != nil && c.Status == metav1.ConditionFalse && c.Reason != string(gwv1.GatewayReasonListenersNotResolved) {
		emit("status", "", c)
	}
}

// listenerSetFindings reports a ListenerSet as gatewayFindings reports a
// Gateway: its unhealthy listener entries, or else its own condition.
func listenerSetFindings(ls *gwv1.ListenerSet, emit func(string, string, *metav1.Condition)) {
	reported := false
	names := listenerEntryNames(ls)
	for _, l := range ls.Status.Listeners {
		if c := firstUnhealthy(l.Conditions); c != nil {
			emit(fmt.Sprintf("status.listeners[%s]", l.Name), listenerField(names, l.Name), c)
			reported = true
		}
	}
	if c := firstUnhealthy(ls.Status.Conditions); c != nil && !reported {
		at := ""
		if c.Reason == string(gwv1.ListenerSetReasonNotAllowed) || c.Reason == string(gwv1.ListenerSetReasonParentNotAccepted) {
			at = "spec.parentRef" // the Gateway that does not take it
		}
		emit("status", at, c)
	}
}

// overlapFinding reports a listener with OverlappingTLSConfig True as a
// warning: the condition is informational (the listener still serves),
// but clients that coalesce connections may reach the wrong listener.
func overlapFinding(listener gwv1.SectionName, names []gwv1.SectionName, conds []metav1.Condition, warn func(string, string, *metav1.Condition)) {
	c := meta.FindStatusCondition(conds, string(gwv1.ListenerConditionOverlappingTLSConfig))
	if c != nil && c.Status == metav1.ConditionTrue {
		warn(fmt.Sprintf("status.listeners[%s]", listener), listenerField(names, listener), c)
	}
}

// firstUnhealthy returns the condition that best explains a problem: the
// cause conditions (Accepted, ResolvedRefs, Conflicted, PartiallyInvalid)
// before the summary one (Programmed).
func firstUnhealthy(conds []metav1.Condition) *metav1.Condition {
	for _, typ := range []string{"Accepted", "ResolvedRefs", "Conflicted", "PartiallyInvalid", "Programmed"} {
		c := meta.FindStatusCondition(conds, typ)
		if c == nil {
			continue
		}
		bad := c.Status == metav1.ConditionFalse
		if typ == "Conflicted" || typ == "PartiallyInvalid" {
			bad = c.Status == metav1.ConditionTrue
		}
		if bad {
			return c
		}
	}
	return nil
}

// routeParents returns the kind, spec.parentRefs and status.parents of a
// route object, or "" for objects that are not routes.
func routeParents(o client.Object) (string, []gwv1.ParentReference, []gwv1.RouteParentStatus) {
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		return "HTTPRoute", r.Spec.ParentRefs, r.Status.Parents
	case *gwv1.GRPCRoute:
		return "GRPCRoute", r.Spec.ParentRefs, r.Status.Parents
	case *gwv1.TLSRoute:
		return "TLSRoute", r.Spec.ParentRefs, r.Status.Parents
	case *gwv1.TCPRoute:
		return "TCPRoute", r.Spec.ParentRefs, r.Status.Parents
	case *gwv1.UDPRoute:
		return "UDPRoute", r.Spec.ParentRefs, r.Status.Parents
	}
	return "", nil, nil
}

func parentRefString(p gwv1.ParentReference) string {
	s := string(p.Name)
	if p.Namespace != nil {
		s = string(*p.Namespace) + "/" + s
	}
	if p.SectionName != nil {
		s += "#" + string(*p.SectionName)
	}
	return s
}
