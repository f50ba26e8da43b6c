package translate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestConditionFindingsPoliciesAndGatewayRefs checks the findings of
// BackendTLSPolicy ancestors (one per distinct problem, healthy entries
// silent) and of a Gateway's own ResolvedRefs, which is reported beside
// its listeners' problems unless it only summarises them.
func TestConditionFindingsPoliciesAndGatewayRefs(t *testing.T) {
	cond := func(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: reason + " message"}
	}
	ancestor := func(gw string, conds ...metav1.Condition) gwv1.PolicyAncestorStatus {
		return gwv1.PolicyAncestorStatus{AncestorRef: gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: gwv1.ObjectName(gw)},
			ControllerName: "example.com/c", Conditions: conds}
	}
	ok := cond("Accepted", metav1.ConditionTrue, "Accepted")
	refsOK := cond("ResolvedRefs", metav1.ConditionTrue, "ResolvedRefs")
	policy := &gwv1.BackendTLSPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "p"}, Status: gwv1.PolicyStatus{Ancestors: []gwv1.PolicyAncestorStatus{
		ancestor("a", cond("Accepted", metav1.ConditionFalse, "Conflicted"), refsOK),
		ancestor("b", cond("Accepted", metav1.ConditionFalse, "Conflicted"), refsOK),
		ancestor("c", ok, cond("ResolvedRefs", metav1.ConditionFalse, "InvalidCACertificateRef")),
		ancestor("d", ok, refsOK),
	}}}
	listenerBad := gwv1.ListenerStatus{Name: "https", Conditions: []metav1.Condition{cond("ResolvedRefs", metav1.ConditionFalse, "InvalidCertificateRef")}}
	gateway := func(name string, refs metav1.Condition) *gwv1.Gateway {
		return &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: name}, Status: gwv1.GatewayStatus{
			Conditions: []metav1.Condition{ok, refs}, Listeners: []gwv1.ListenerStatus{listenerBad}}}
	}
	objs := []client.Object{
		policy,
		gateway("summary", cond("ResolvedRefs", metav1.ConditionFalse, "ListenersNotResolved")),
		gateway("own", cond("ResolvedRefs", metav1.ConditionFalse, "InvalidClientCertificateRef")),
	}
	var got []string
	for _, f := range ConditionFindings(objs, nil) {
		got = append(got, f.Object.String()+" "+f.Field+" "+f.Reason)
	}
	want := []string{
		"BackendTLSPolicy app/p status.ancestors[infra/a] Conflicted",
		"BackendTLSPolicy app/p status.ancestors[infra/c] InvalidCACertificateRef",
		"Gateway infra/own status.listeners[https] InvalidCertificateRef",
		"Gateway infra/own status InvalidClientCertificateRef",
		"Gateway infra/summary status.listeners[https] InvalidCertificateRef",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
