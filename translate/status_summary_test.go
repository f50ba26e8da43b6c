package translate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

func cond(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason}
}

// TestStatusSummary checks the judgement of each line (the same as check's:
// a False Accepted is Unhealthy, a True OverlappingTLSConfig a warning, a
// False Conflicted normal) and the order: worst first, then by object,
// each object's parts in status order.
func TestStatusSummary(t *testing.T) {
	gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "web"}}
	gw.Status.Conditions = []metav1.Condition{cond("Accepted", "True", "Accepted")}
	gw.Status.Listeners = []gwv1.ListenerStatus{
		{Name: "https", AttachedRoutes: 2, Conditions: []metav1.Condition{
			cond("Accepted", "True", "Accepted"), cond("Conflicted", "False", "NoConflicts"), cond("OverlappingTLSConfig", "True", "OverlappingHostnames")}},
		{Name: "http", Conditions: []metav1.Condition{cond("Accepted", "False", "PortUnavailable")}},
	}
	route := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "a"}}
	route.Status.Parents = []gwv1.RouteParentStatus{
		{ParentRef: gwv1.ParentReference{Name: "web"}, Conditions: []metav1.Condition{cond("Accepted", "True", "Accepted"), cond("ResolvedRefs", "False", "BackendNotFound")}},
	}
	quiet := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "quiet"}}
	two := int32(2)
	zero := int32(0)
	got := StatusSummary([]client.Object{gw, quiet, route})
	want := []StatusLine{
		{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "web"}, Part: "listener http", AttachedRoutes: &zero,
			Conditions: []ConditionSummary{{Type: "Accepted", Status: "False", Reason: "PortUnavailable"}}, Health: Unhealthy},
		{Object: diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "a"}, Part: "parent web",
			Conditions: []ConditionSummary{{Type: "Accepted", Status: "True", Reason: "Accepted", Normal: true}, {Type: "ResolvedRefs", Status: "False", Reason: "BackendNotFound"}},
			Health:     Unhealthy},
		{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "web"}, Part: "listener https", AttachedRoutes: &two,
			Conditions: []ConditionSummary{{Type: "Accepted", Status: "True", Reason: "Accepted", Normal: true},
				{Type: "Conflicted", Status: "False", Reason: "NoConflicts", Normal: true}, {Type: "OverlappingTLSConfig", Status: "True", Reason: "OverlappingHostnames"}},
			Health: Degraded},
		{Object: diag.ObjectRef{Kind: "Gateway", Namespace: "infra", Name: "web"},
			Conditions: []ConditionSummary{{Type: "Accepted", Status: "True", Reason: "Accepted", Normal: true}}, Health: Healthy},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StatusSummary (-want +got):\n%s", diff)
	}
}
