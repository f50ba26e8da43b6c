package controller

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestGatewayClassReconciler(t *testing.T) {
	accepted := func(at metav1.Time) []metav1.Condition {
		return []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", LastTransitionTime: at}}
	}
	rejected := []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionFalse, Reason: "Pending", LastTransitionTime: before}}
	for _, tc := range []struct {
		name      string
		ctrl      string
		stored    []metav1.Condition
		want      []metav1.Condition
		wantWrite bool
	}{
		{"ours, no status yet", ours, nil, accepted(now), true},
		{"ours, status changed", ours, rejected, accepted(now), true},
		{"ours, unchanged but for the time", ours, accepted(before), accepted(before), false},
		{"another controller's", theirs, rejected, rejected, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			class := gatewayClass("cls", tc.ctrl)
			class.Status.Conditions = tc.stored
			c := newClient(t, class)
			r := &GatewayClassReconciler{Env{Client: c, Options: testOptions(), Translate: stubTranslate}}
			if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Name: "cls"}}); err != nil {
				t.Fatal(err)
			}
			got := &gwv1.GatewayClass{}
			if err := c.Get(context.Background(), client.ObjectKeyFromObject(class), got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Status.Conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if wrote := got.ResourceVersion != "999"; wrote != tc.wantWrite {
				t.Errorf("wrote = %v, want %v", wrote, tc.wantWrite)
			}
		})
	}
}

func TestReconcilersIgnoreMissingObjects(t *testing.T) {
	c := newClient(t)
	env := Env{Client: c, Options: testOptions(), Translate: stubTranslate}
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "missing"}}
	for name, r := range map[string]reconcile.Reconciler{
		"GatewayClass": &GatewayClassReconciler{env},
		"Gateway":      &GatewayReconciler{Env: env},
		"Route":        &RouteReconciler{Env: env, Kind: RouteKinds()[0]},
	} {
		if _, err := r.Reconcile(context.Background(), req); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
