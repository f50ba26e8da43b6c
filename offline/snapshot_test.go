package offline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// TestSnapshotDiff checks the side-by-side walk of two snapshots: objects
// only in one of them, a changed status or generation, and objects whose
// resourceVersion moved with nothing else changed, over several kinds.
func TestSnapshotDiff(t *testing.T) {
	route := func(ns, name, rv string, gen int64, parents int) client.Object {
		r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Generation: gen}}
		for range parents {
			r.Status.Parents = append(r.Status.Parents, gwv1.RouteParentStatus{ControllerName: "c"})
		}
		return r
	}
	gw := func(name, rv string) client.Object {
		return &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: name, ResourceVersion: rv, Generation: 1}}
	}
	before := snapshot{objs: map[string][]client.Object{
		"HTTPRoute": {
			route("a", "gone", "1", 1, 0),
			route("a", "same", "2", 1, 1),
			route("a", "status", "3", 1, 0),
			route("b", "generation", "4", 1, 0),
			route("b", "rewritten", "5", 1, 1),
		},
		"Gateway": {gw("only-before", "6")},
	}}
	after := snapshot{objs: map[string][]client.Object{
		"HTTPRoute": {
			route("a", "new", "7", 1, 0),
			route("a", "same", "2", 1, 1),
			route("a", "status", "8", 1, 1),
			route("b", "generation", "9", 2, 0),
			route("b", "rewritten", "10", 1, 1),
			route("c", "last", "11", 1, 0),
		},
		"GRPCRoute": {},
	}}
	want := []diag.ObjectRef{
		{Kind: "Gateway", Namespace: "a", Name: "only-before"},
		{Kind: "HTTPRoute", Namespace: "a", Name: "gone"},
		{Kind: "HTTPRoute", Namespace: "a", Name: "new"},
		{Kind: "HTTPRoute", Namespace: "a", Name: "status"},
		{Kind: "HTTPRoute", Namespace: "b", Name: "generation"},
		{Kind: "HTTPRoute", Namespace: "c", Name: "last"},
	}
	if d := cmp.Diff(want, before.diff(after)); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, after.diff(before)); d != "" {
		t.Errorf("diff the other way (-want +got):\n%s", d)
	}
	if !before.differs(after) || !after.differs(before) {
		t.Error("differs = false for snapshots that differ")
	}
	if before.differs(before) {
		t.Error("differs = true for a snapshot and itself")
	}
}
