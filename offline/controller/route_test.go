package controller

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/internal/defaulttest"
)

func listenerSet(ns, name, gwNS, gw string) *gwv1.ListenerSet {
	ls := &gwv1.ListenerSet{ObjectMeta: objMeta(ns, name)}
	ls.Spec.ParentRef = gwv1.ParentGatewayReference{Name: gwv1.ObjectName(gw), Namespace: ptr(gwv1.Namespace(gwNS))}
	return defaulttest.Must(ls)
}

func TestRouteReconcilerDropsStaleParents(t *testing.T) {
	lsRef := func(name string) gwv1.ParentReference {
		return defaultedRef(gwv1.ParentReference{Kind: ptr(gwv1.Kind("ListenerSet")), Namespace: ptr(gwv1.Namespace("infra")), Name: gwv1.ObjectName(name)})
	}
	live, foreign, gone := gwRef("infra", "live"), gwRef("infra", "foreign"), gwRef("infra", "gone")
	removed := gwRef("infra", "live")
	removed.SectionName = ptr(gwv1.SectionName("old-listener"))
	world := []client.Object{
		gatewayClass("cls", ours), gatewayClass("tcls", theirs),
		gateway("infra", "live", "cls"), gateway("infra", "foreign", "tcls"),
		listenerSet("infra", "ls", "infra", "live"), listenerSet("infra", "ls-dead", "infra", "gone"),
	}
	spec := []gwv1.ParentReference{live, foreign, gone, lsRef("ls"), lsRef("ls-dead"), lsRef("ls-missing")}
	for _, tc := range []struct {
		name    string
		parents []gwv1.RouteParentStatus
		want    []gwv1.RouteParentStatus
	}{
		{
			name: "drops gwsim's entries whose parent left; keeps live ones and other controllers'",
			parents: []gwv1.RouteParentStatus{
				parentStatus(live, ours, "Kept", before),
				parentStatus(live, theirs, "Theirs", before),
				parentStatus(foreign, ours, "ClassNotOurs", before),
				parentStatus(foreign, theirs, "Theirs", before),
				parentStatus(gone, ours, "GatewayGone", before),
				parentStatus(lsRef("ls"), ours, "Kept", before),
				parentStatus(lsRef("ls-dead"), ours, "ListenerSetGatewayGone", before),
				parentStatus(lsRef("ls-missing"), ours, "ListenerSetGone", before),
				parentStatus(removed, ours, "NotInSpec", before),
				parentStatus(removed, theirs, "Theirs", before),
			},
			want: []gwv1.RouteParentStatus{
				parentStatus(live, ours, "Kept", before),
				parentStatus(live, theirs, "Theirs", before),
				parentStatus(foreign, theirs, "Theirs", before),
				parentStatus(lsRef("ls"), ours, "Kept", before),
				parentStatus(removed, theirs, "Theirs", before),
			},
		},
		{
			name:    "nothing stale writes nothing",
			parents: []gwv1.RouteParentStatus{parentStatus(live, ours, "Kept", before), parentStatus(gone, theirs, "Theirs", before)},
			want:    []gwv1.RouteParentStatus{parentStatus(live, ours, "Kept", before), parentStatus(gone, theirs, "Theirs", before)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			route := httpRoute("apps", "r", spec)
			route.Status.Parents = tc.parents
			rec := &recorder{Client: newClient(t, append(world, route)...)}
			kind := RouteKinds()[0]
			r := &RouteReconciler{Env: Env{Client: rec, Options: testOptions()}, Kind: kind}
			if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "apps", Name: "r"}}); err != nil {
				t.Fatal(err)
			}
			got := &gwv1.HTTPRoute{}
			if err := rec.Client.Get(context.Background(), client.ObjectKeyFromObject(route), got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Status.Parents); diff != "" {
				t.Errorf("parents (-want +got):\n%s", diff)
			}
			if wrote := got.ResourceVersion != "999"; wrote != (len(tc.want) != len(tc.parents)) {
				t.Errorf("wrote = %v, want %v", wrote, !wrote)
			}
			for _, call := range rec.calls {
				if strings.HasPrefix(call, "List") {
					t.Errorf("route reconciler listed: %s", call)
				}
			}
		})
	}
}

func TestRouteReconcilerServesEveryKind(t *testing.T) {
	gone := gwRef("infra", "gone")
	for _, k := range RouteKinds() {
		t.Run(k.Kind, func(t *testing.T) {
			o := k.New()
			o.SetNamespace("apps")
			o.SetName("r")
			spec, status := k.Access(o)
			spec.ParentRefs = []gwv1.ParentReference{gone}
			status.Parents = []gwv1.RouteParentStatus{parentStatus(gone, ours, "GatewayGone", before)}
			c := newClient(t, o)
			r := &RouteReconciler{Env: Env{Client: c, Options: testOptions()}, Kind: k}
			if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)}); err != nil {
				t.Fatal(err)
			}
			got := k.New()
			if err := c.Get(context.Background(), client.ObjectKeyFromObject(o), got); err != nil {
				t.Fatal(err)
			}
			if _, st := k.Access(got); len(st.Parents) != 0 {
				t.Errorf("parents = %+v, want none", st.Parents)
			}
		})
	}
}
