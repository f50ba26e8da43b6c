package translate

import (
	"testing"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/translate/egpolicy"
)

// TestMergedPolicy checks that a route policy with mergeType is merged
// onto its parent's as Envoy Gateway merges them: a strategic merge keeps
// the parent's fields the route's leaves out and takes the route's where
// both set one; a JSON merge patch replaces lists whole.
func TestMergedPolicy(t *testing.T) {
	deny := egv1a1.AuthorizationActionDeny
	allow := egv1a1.AuthorizationActionAllow
	parent := &egv1a1.SecurityPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "gw"}, Spec: egv1a1.SecurityPolicySpec{
		BasicAuth:     &egv1a1.BasicAuth{},
		Authorization: &egv1a1.Authorization{DefaultAction: &deny},
	}}
	for _, mt := range []egv1a1.MergeType{egv1a1.StrategicMerge, egv1a1.JSONMerge} {
		child := &egv1a1.SecurityPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "route"}, Spec: egv1a1.SecurityPolicySpec{
			MergeType:     &mt,
			Authorization: &egv1a1.Authorization{DefaultAction: &allow},
		}}
		a := egpolicy.Applied{
			Policy:     &egpolicy.Policy{Object: child, MergeType: &mt},
			MergedWith: &egpolicy.Applied{Policy: &egpolicy.Policy{Object: parent}},
		}
		got, ok := merged(a).(*egv1a1.SecurityPolicy)
		if !ok {
			t.Fatalf("%s: merged is %T", mt, merged(a))
		}
		if got.Name != "route" || got.Spec.BasicAuth == nil || got.Spec.Authorization == nil || *got.Spec.Authorization.DefaultAction != allow {
			t.Errorf("%s: merged spec %+v, want the parent's basicAuth and the route's default action", mt, got.Spec)
		}
		if child.Spec.BasicAuth != nil {
			t.Errorf("%s: the route's policy was modified", mt)
		}
	}
}
