package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// TestCompareUnplaced checks that a changed, added or removed object that
// no part of the report names is listed; that status and the store's
// metadata are not a change; and that a Service is taken as placed once
// routing changes.
func TestCompareUnplaced(t *testing.T) {
	route := func(path, rv string) client.Object {
		r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "r", ResourceVersion: rv}}
		r.Spec.Rules = []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Value: &path}}}}}
		return r
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "s"}}
	rRef, sRef := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: "r"}, diag.ObjectRef{Kind: "Service", Namespace: "shop", Name: "s"}
	withStatus := route("/a", "2").(*gwv1.HTTPRoute)
	withStatus.Status.Parents = []gwv1.RouteParentStatus{{ControllerName: "x"}}
	tests := []struct {
		name     string
		old, new map[diag.ObjectRef]client.Object
		report   Report
		want     []Unplaced
	}{
		{"changed", map[diag.ObjectRef]client.Object{rRef: route("/a", "1")}, map[diag.ObjectRef]client.Object{rRef: route("/b", "1")}, Report{},
			[]Unplaced{{Object: rRef, Change: Changed}}},
		{"status and resourceVersion are no change", map[diag.ObjectRef]client.Object{rRef: route("/a", "1")}, map[diag.ObjectRef]client.Object{rRef: withStatus}, Report{}, nil},
		{"added and removed", map[diag.ObjectRef]client.Object{sRef: svc}, map[diag.ObjectRef]client.Object{rRef: route("/a", "1")}, Report{},
			[]Unplaced{{Object: rRef, Change: Added}, {Object: sRef, Change: Removed}}},
		{"named by a route change", map[diag.ObjectRef]client.Object{rRef: route("/a", "1")}, map[diag.ObjectRef]client.Object{rRef: route("/b", "1"), sRef: svc},
			Report{Routes: []RouteChange{{Route: originOf(rRef)}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, compareUnplaced(tt.old, tt.new, tt.report)); d != "" {
				t.Errorf("compareUnplaced (-want +got):\n%s", d)
			}
		})
	}
}

func originOf(r diag.ObjectRef) ir.Origin {
	return ir.Origin{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}
