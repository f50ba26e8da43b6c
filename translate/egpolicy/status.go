package egpolicy

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// MaxAncestors is the CRD's limit on status.ancestors entries.
const MaxAncestors = 16

// The condition messages EG writes that carry no names.
const (
	msgAccepted   = "Policy has been accepted."
	msgAggregated = "Ancestors have been truncated because the number of policy ancestors exceeds 16."
)

// Problem is a reason EG refuses a policy at one ancestor.
type Problem struct {
	// Reason is a policy condition reason (Conflicted, TargetNotFound,
	// Invalid).
	Reason  string
	Message string
}

// statusBuilder collects one policy's ancestors as EG's status helpers
// do: an entry per distinct ancestorRef, a condition per type, the first
// Accepted written kept.
type statusBuilder struct {
	controller gwv1.GatewayController
	generation int64
	now        metav1.Time
	ancestors  []gwv1.PolicyAncestorStatus
}

func (b *statusBuilder) entry(ref gwv1.ParentReference) *gwv1.PolicyAncestorStatus {
	for i := range b.ancestors {
		if sameRef(b.ancestors[i].AncestorRef, ref) {
			return &b.ancestors[i]
		}
	}
	b.ancestors = append(b.ancestors, gwv1.PolicyAncestorStatus{AncestorRef: ref, ControllerName: b.controller, Conditions: []metav1.Condition{}})
	return &b.ancestors[len(b.ancestors)-1]
}

func (b *statusBuilder) set(ref gwv1.ParentReference, typ string, status metav1.ConditionStatus, reason string, msg string) {
	e := b.entry(ref)
	c := metav1.Condition{Type: typ, Status: status, Reason: reason, Message: msg, ObservedGeneration: b.generation, LastTransitionTime: b.now}
	// As EG's MergeConditions: a condition of the type is replaced in
	// place, else added. (meta.SetStatusCondition would stamp the clock.)
	for i := range e.Conditions {
		if e.Conditions[i].Type == typ {
			e.Conditions[i] = c
			return
		}
	}
	e.Conditions = append(e.Conditions, c)
}

func (b *statusBuilder) refuse(ref gwv1.ParentReference, p Problem) {
	b.set(ref, string(gwv1.PolicyConditionAccepted), metav1.ConditionFalse, p.Reason, p.Message)
}

// accept writes Accepted=True unless the entry has an Accepted already.
func (b *statusBuilder) accept(ref gwv1.ParentReference) {
	if meta.FindStatusCondition(b.entry(ref).Conditions, string(gwv1.PolicyConditionAccepted)) == nil {
		b.set(ref, string(gwv1.PolicyConditionAccepted), metav1.ConditionTrue, string(gwv1.PolicyReasonAccepted), msgAccepted)
	}
}

// warnDeprecated writes EG's Warning for the deprecated fields set.
func (b *statusBuilder) warnDeprecated(ref gwv1.ParentReference, deprecated map[string]string) {
	if len(deprecated) == 0 {
		return
	}
	keys := make([]string, 0, len(deprecated))
	for k := range deprecated {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " is deprecated, use " + deprecated[k] + " instead"
	}
	b.set(ref, string(egv1a1.PolicyConditionWarning), metav1.ConditionTrue, string(egv1a1.PolicyReasonDeprecatedField), strings.Join(parts, "; "))
}

func (b *statusBuilder) overridden(ref gwv1.ParentReference, msg string) {
	b.set(ref, string(egv1a1.PolicyConditionOverridden), metav1.ConditionTrue, string(egv1a1.PolicyReasonOverridden), msg)
}

// done returns the ancestors, cut to MaxAncestors as EG cuts them: the
// entries not accepted first, then the overridden, then the others, each
// by namespace and name, the last kept marked Aggregated.
func (b *statusBuilder) done() []gwv1.PolicyAncestorStatus {
	if len(b.ancestors) <= MaxAncestors {
		return b.ancestors
	}
	slices.SortStableFunc(b.ancestors, func(x, y gwv1.PolicyAncestorStatus) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), cmp.Compare(ns(x.AncestorRef), ns(y.AncestorRef)), cmp.Compare(x.AncestorRef.Name, y.AncestorRef.Name))
	})
	b.ancestors = b.ancestors[:MaxAncestors]
	b.set(b.ancestors[MaxAncestors-1].AncestorRef, string(egv1a1.PolicyConditionAggregated), metav1.ConditionTrue, string(egv1a1.PolicyReasonAggregated), msgAggregated)
	return b.ancestors
}

func rank(a gwv1.PolicyAncestorStatus) int {
	switch {
	case meta.IsStatusConditionFalse(a.Conditions, string(gwv1.PolicyConditionAccepted)):
		return 0
	case meta.IsStatusConditionTrue(a.Conditions, string(egv1a1.PolicyConditionOverridden)):
		return 1
	}
	return 2
}

func ns(r gwv1.ParentReference) string {
	if r.Namespace == nil {
		return ""
	}
	return string(*r.Namespace)
}

func sameRef(a, b gwv1.ParentReference) bool {
	return ptrEq(a.Group, b.Group) && ptrEq(a.Kind, b.Kind) && ptrEq(a.Namespace, b.Namespace) && a.Name == b.Name &&
		ptrEq(a.SectionName, b.SectionName) && ptrEq(a.Port, b.Port)
}

func ptrEq[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// ancestorRef is the reference EG writes for a Gateway or ListenerSet
// (kind) ancestor, with the section when one is named.
func ancestorRef(kind string, key types.NamespacedName, section string) gwv1.ParentReference {
	g, k, n := gwv1.Group(gwv1.GroupName), gwv1.Kind(kind), gwv1.Namespace(key.Namespace)
	r := gwv1.ParentReference{Group: &g, Kind: &k, Namespace: &n, Name: gwv1.ObjectName(key.Name)}
	if section != "" {
		s := gwv1.SectionName(section)
		r.SectionName = &s
	}
	return r
}
