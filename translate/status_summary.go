package translate

import (
	"cmp"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// Health is how one status line reads: as check judges its conditions.
type Health string

const (
	// Unhealthy lines have a condition check reports as an error.
	Unhealthy Health = "Unhealthy"
	// Degraded lines have a condition check reports as a warning (a
	// listener's OverlappingTLSConfig): the part still serves.
	Degraded Health = "Warning"
	Healthy  Health = "Healthy"
)

// healthRank orders lines worst first.
func healthRank(h Health) int {
	switch h {
	case Unhealthy:
		return 0
	case Degraded:
		return 1
	}
	return 2
}

// StatusLine is one line of the status summary: the conditions of an
// object itself, or of one of its listeners, route parents or policy
// ancestors, which carry conditions of their own.
type StatusLine struct {
	Object diag.ObjectRef
	// Part names what the conditions belong to: empty for the object
	// itself, "listener NAME", "parent NAMESPACE/NAME#SECTION" or
	// "ancestor NAMESPACE/NAME".
	Part string
	// AttachedRoutes is a listener's status.attachedRoutes; nil on other
	// lines.
	AttachedRoutes *int32
	Conditions     []ConditionSummary
	Health         Health
}

// ConditionSummary is one condition as a summary shows it.
type ConditionSummary struct {
	Type   string
	Status metav1.ConditionStatus
	Reason string
	// Normal is true when the status is the one a working object has:
	// True, except for the conditions that report a problem when True
	// (Conflicted, PartiallyInvalid, OverlappingTLSConfig).
	Normal bool
}

// problemWhenTrue are the condition types whose True status reports a
// problem; every other type reports one when it is not True.
var problemWhenTrue = []string{
	string(gwv1.ListenerConditionConflicted),
	string(gwv1.RouteConditionPartiallyInvalid),
	string(gwv1.ListenerConditionOverlappingTLSConfig),
}

// StatusSummary lists the status of every Gateway API object that has
// conditions, one line per object and per listener, route parent and
// policy ancestor, judged as ConditionFindings judges them (so a line is
// Unhealthy exactly when check reports it). Lines come worst first, then by
// kind, namespace and name, each object's parts in status order.
func StatusSummary(objs []client.Object) []StatusLine {
	var out []StatusLine
	for _, o := range objs {
		ref := diag.ObjectRef{Namespace: o.GetNamespace(), Name: o.GetName()}
		add := func(part string, attached *int32, conds []metav1.Condition) {
			if len(conds) > 0 {
				out = append(out, summarize(ref, part, attached, conds))
			}
		}
		switch t := o.(type) {
		case *gwv1.GatewayClass:
			ref.Kind = "GatewayClass"
			add("", nil, t.Status.Conditions)
		case *gwv1.Gateway:
			ref.Kind = "Gateway"
			add("", nil, t.Status.Conditions)
			for _, l := range t.Status.Listeners {
				add("listener "+string(l.Name), &l.AttachedRoutes, l.Conditions)
			}
		case *gwv1.ListenerSet:
			ref.Kind = "ListenerSet"
			add("", nil, t.Status.Conditions)
			for _, l := range t.Status.Listeners {
				add("listener "+string(l.Name), &l.AttachedRoutes, l.Conditions)
			}
		case *gwv1.BackendTLSPolicy:
			ref.Kind = "BackendTLSPolicy"
			for _, a := range t.Status.Ancestors {
				add("ancestor "+parentRefString(a.AncestorRef), nil, a.Conditions)
			}
		default:
			kind, _, parents := routeParents(o)
			ref.Kind = kind
			for _, p := range parents {
				add("parent "+parentRefString(p.ParentRef), nil, p.Conditions)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b StatusLine) int {
		return cmp.Or(cmp.Compare(healthRank(a.Health), healthRank(b.Health)), a.Object.Compare(b.Object))
	})
	return out
}

// summarize judges one set of conditions.
func summarize(ref diag.ObjectRef, part string, attached *int32, conds []metav1.Condition) StatusLine {
	line := StatusLine{Object: ref, Part: part, AttachedRoutes: attached, Health: Healthy}
	for _, c := range conds {
		normal := c.Status == metav1.ConditionTrue
		if slices.Contains(problemWhenTrue, c.Type) {
			normal = c.Status == metav1.ConditionFalse
		}
		line.Conditions = append(line.Conditions, ConditionSummary{Type: c.Type, Status: c.Status, Reason: c.Reason, Normal: normal})
		if c.Type == string(gwv1.ListenerConditionOverlappingTLSConfig) && c.Status == metav1.ConditionTrue {
			line.Health = Degraded
		}
	}
	if firstUnhealthy(conds) != nil {
		line.Health = Unhealthy
	}
	return line
}
