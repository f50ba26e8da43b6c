package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// StatusChange is one status value of one object that differs: a
// condition's status and reason, or a listener's attachedRoutes.
type StatusChange struct {
	Object diag.ObjectRef `json:"object"`
	// Scope narrows the object: "listener https", "parent Gateway infra/gw",
	// "ancestor Gateway infra/gw"; empty for the object's own conditions.
	Scope string `json:"scope,omitempty"`
	// Item is a condition type, or "attachedRoutes".
	Item string `json:"item"`
	// Before and After are "True (Accepted)" or a count; empty when the
	// value is absent on that side (the object or parent is new or gone).
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// statusKey identifies one status value.
type statusKey struct {
	object      diag.ObjectRef
	scope, item string
}

// compareStatus lists the status values that differ. Messages and
// timestamps are left out: they say why, and the reason already changes
// whenever the cause does.
func compareStatus(old, new translate.Status) []StatusChange {
	before, after := flattenStatus(old), flattenStatus(new)
	var out []StatusChange
	for k, a := range after {
		if b := before[k]; b != a {
			out = append(out, StatusChange{Object: k.object, Scope: k.scope, Item: k.item, Before: b, After: a})
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			out = append(out, StatusChange{Object: k.object, Scope: k.scope, Item: k.item, Before: b})
		}
	}
	slices.SortFunc(out, func(a, b StatusChange) int {
		return cmp.Or(a.Object.Compare(b.Object), cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.Item, b.Item))
	})
	return out
}

// flattenStatus turns every status gwsim owns into values by key.
func flattenStatus(s translate.Status) map[statusKey]string {
	out := map[statusKey]string{}
	conds := func(obj diag.ObjectRef, scope string, cs []metav1.Condition) {
		for _, c := range cs {
			out[statusKey{obj, scope, c.Type}] = fmt.Sprintf("%s (%s)", c.Status, c.Reason)
		}
	}
	listeners := func(obj diag.ObjectRef, ls []gwv1.ListenerStatus) {
		for _, l := range ls {
			scope := "listener " + string(l.Name)
			conds(obj, scope, l.Conditions)
			out[statusKey{obj, scope, "attachedRoutes"}] = strconv.Itoa(int(l.AttachedRoutes))
		}
	}
	for k, st := range s.GatewayClasses {
		conds(ref("GatewayClass", k), "", st.Conditions)
	}
	for k, st := range s.Gateways {
		obj := ref("Gateway", k)
		conds(obj, "", st.Conditions)
		listeners(obj, st.Listeners)
	}
	for k, st := range s.ListenerSets {
		obj := ref("ListenerSet", k)
		conds(obj, "", st.Conditions)
		for _, l := range st.Listeners {
			scope := "listener " + string(l.Name)
			conds(obj, scope, l.Conditions)
			out[statusKey{obj, scope, "attachedRoutes"}] = strconv.Itoa(int(l.AttachedRoutes))
		}
	}
	for obj, parents := range s.Routes {
		for _, p := range parents {
			conds(obj, "parent "+parentString(p.ParentRef, obj.Namespace), p.Conditions)
		}
	}
	for k, ancestors := range s.BackendTLSPolicies {
		for _, a := range ancestors {
			conds(ref("BackendTLSPolicy", k), "ancestor "+parentString(a.AncestorRef, k.Namespace), a.Conditions)
		}
	}
	for k, st := range s.Backends {
		conds(ref("Backend", k), "", st.Conditions)
	}
	return out
}

func ref(kind string, k types.NamespacedName) diag.ObjectRef {
	return diag.ObjectRef{Kind: kind, Namespace: k.Namespace, Name: k.Name}
}

// parentString renders a parentRef as `Gateway ns/name`, with
// `/section` and `:port` when it names them; the namespace defaults to
// the referring object's. The kind is there: status echoes the parentRef
// as stored, and the CRD defaults it to Gateway.
func parentString(p gwv1.ParentReference, ns string) string {
	var kind string
	if p.Kind != nil {
		kind = string(*p.Kind)
	}
	if p.Namespace != nil {
		ns = string(*p.Namespace)
	}
	s := kind + " " + ns + "/" + string(p.Name)
	if p.SectionName != nil {
		s += "/" + string(*p.SectionName)
	}
	if p.Port != nil {
		s += ":" + strconv.Itoa(int(*p.Port))
	}
	return s
}
