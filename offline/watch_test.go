package offline

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// TestWatcherRequeues checks which reconciles a write made through the
// watcher requeues for the next pass.
func TestWatcherRequeues(t *testing.T) {
	gwRef := func(name string) diag.ObjectRef { return diag.ObjectRef{Kind: "Gateway", Namespace: "ns", Name: name} }
	routeRef := diag.ObjectRef{Kind: "HTTPRoute", Namespace: "ns", Name: "r"}
	policyRef := diag.ObjectRef{Kind: "BackendTLSPolicy", Namespace: "ns", Name: "p"}
	// An entry as translate writes it: group and kind spelled out.
	group, kind := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway")
	ancestor := func(gw string) gwv1.PolicyAncestorStatus {
		return gwv1.PolicyAncestorStatus{AncestorRef: gwv1.ParentReference{Group: &group, Kind: &kind, Name: gwv1.ObjectName(gw)}, ControllerName: ours}
	}
	for _, tc := range []struct {
		name    string
		writer  diag.ObjectRef
		pending []diag.ObjectRef // still to run in the pass
		write   func(ctx context.Context, c client.Client) error
		want    map[string][]diag.ObjectRef
		// newEpoch: the write may change what controller.ReadMemo keeps.
		newEpoch bool
	}{
		{
			name: "a Gateway writes a route's status: the route, no Gateway", writer: gwRef("a"),
			write: func(ctx context.Context, c client.Client) error {
				return updateStatus(ctx, c, &gwv1.HTTPRoute{}, "r", func(o client.Object) {
					o.(*gwv1.HTTPRoute).Status.Parents = []gwv1.RouteParentStatus{{ParentRef: gwv1.ParentReference{Name: "a"}, ControllerName: ours}}
				})
			},
			want: map[string][]diag.ObjectRef{"HTTPRoute": {routeRef}},
		},
		{
			name: "the route is still to run in this pass: nothing", writer: gwRef("a"), pending: []diag.ObjectRef{routeRef},
			write: func(ctx context.Context, c client.Client) error {
				return updateStatus(ctx, c, &gwv1.HTTPRoute{}, "r", func(o client.Object) {
					o.(*gwv1.HTTPRoute).Status.Parents = []gwv1.RouteParentStatus{{ParentRef: gwv1.ParentReference{Name: "a"}, ControllerName: ours}}
				})
			},
			want: map[string][]diag.ObjectRef{},
		},
		{
			name: "a route's reconcile writes its own status: nothing", writer: routeRef,
			write: func(ctx context.Context, c client.Client) error {
				return updateStatus(ctx, c, &gwv1.HTTPRoute{}, "r", func(o client.Object) { o.(*gwv1.HTTPRoute).Status.Parents = nil })
			},
			want: map[string][]diag.ObjectRef{},
		},
		{
			name: "Gateway a adds its ancestor entry next to b's: the policy, not a, not b", writer: gwRef("a"),
			write: func(ctx context.Context, c client.Client) error {
				return updateStatus(ctx, c, &gwv1.BackendTLSPolicy{}, "p", func(o client.Object) {
					o.(*gwv1.BackendTLSPolicy).Status.Ancestors = []gwv1.PolicyAncestorStatus{ancestor("a"), ancestor("b")}
				})
			},
			want: map[string][]diag.ObjectRef{"BackendTLSPolicy": {policyRef}},
		},
		{
			name: "Gateway a drops b's ancestor entry: the policy and b", writer: gwRef("a"),
			write: func(ctx context.Context, c client.Client) error {
				return updateStatus(ctx, c, &gwv1.BackendTLSPolicy{}, "p", func(o client.Object) {
					o.(*gwv1.BackendTLSPolicy).Status.Ancestors = nil
				})
			},
			want: map[string][]diag.ObjectRef{"BackendTLSPolicy": {policyRef}, "Gateway": {gwRef("b")}},
		},
		{
			name: "a spec write: everything", writer: gwRef("a"),
			write: func(ctx context.Context, c client.Client) error {
				r := &gwv1.HTTPRoute{}
				if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "r"}, r); err != nil {
					return err
				}
				r.Spec.Hostnames = []gwv1.Hostname{"example.com"}
				return c.Update(ctx, r)
			},
			want: map[string][]diag.ObjectRef{
				"BackendTLSPolicy": {policyRef}, "Gateway": {gwRef("a"), gwRef("b")}, "GatewayClass": {{Kind: "GatewayClass", Name: "cls"}},
				"HTTPRoute": {routeRef},
			},
			newEpoch: true,
		},
	} {
		for storeName, factory := range stores {
			t.Run(tc.name+"/"+storeName, func(t *testing.T) {
				ctx := context.Background()
				policy := &gwv1.BackendTLSPolicy{}
				policy.Namespace, policy.Name = "ns", "p"
				policy.Status.Ancestors = []gwv1.PolicyAncestorStatus{ancestor("b")}
				objs := []client.Object{gatewayClass("cls", ours), gateway("ns", "a", "cls"), gateway("ns", "b", "cls"), httpRoute("ns", "r", "a", "b"), policy}
				c, err := factory(scheme.New(), objs, controller.Indexes())
				if err != nil {
					t.Fatal(err)
				}
				w := newWatcher(c, controller.Indexes())
				ts := targets(controller.Env{Client: w})
				all, err := takeSnapshot(ctx, w, ts)
				if err != nil {
					t.Fatal(err)
				}
				w.startPass(ts, map[string][]diag.ObjectRef{"": append([]diag.ObjectRef{tc.writer}, tc.pending...)})
				epoch := w.readEpoch()
				if err := tc.write(w.begin(ctx, tc.writer), w); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, w.queued(all)); diff != "" {
					t.Errorf("queued (-want +got):\n%s", diff)
				}
				if moved := w.readEpoch() != epoch; moved != tc.newEpoch {
					t.Errorf("read epoch moved: %v, want %v", moved, tc.newEpoch)
				}
			})
		}
	}
}

// updateStatus reads ns/name into obj, changes it and writes its status.
func updateStatus(ctx context.Context, c client.Client, obj client.Object, name string, change func(client.Object)) error {
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: name}, obj); err != nil {
		return err
	}
	change(obj)
	return c.Status().Update(ctx, obj)
}

// TestEachGatewayTranslatedOnce checks what the event-driven loop saves: in
// a fresh world each Gateway is translated once, even when another
// Gateway's write changes the status of a route they share (which used to
// make the confirming pass translate the first Gateway again), and the
// confirming pass reconciles nothing.
func TestEachGatewayTranslatedOnce(t *testing.T) {
	objs := []client.Object{
		gatewayClass("cls", ours), gateway("ns", "a", "cls"), gateway("ns", "b", "cls"),
		httpRoute("ns", "shared", "a", "b"), httpRoute("ns", "only-b", "b"), service("ns", "web"), namespace("ns"),
	}
	for storeName, factory := range stores {
		t.Run(storeName, func(t *testing.T) {
			var mu sync.Mutex
			perGateway := map[string]int{}
			counting := func(in translate.Input, opts translate.Options) translate.Output {
				if len(in.Gateways) == 1 {
					mu.Lock()
					perGateway[in.Gateways[0].Name]++
					mu.Unlock()
				}
				return stubTranslate(in, opts)
			}
			c, err := factory(scheme.New(), objs, controller.Indexes())
			if err != nil {
				t.Fatal(err)
			}
			passes, err := reconcileWith(context.Background(), c, nil, testOptions(), counting)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]int{"a": 1, "b": 1}, perGateway); diff != "" || passes != 2 {
				t.Errorf("%d passes, translations per Gateway (-want +got):\n%s", passes, diff)
			}
			route := &gwv1.HTTPRoute{}
			if err := c.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "shared"}, route); err != nil {
				t.Fatal(err)
			}
			if len(route.Status.Parents) != 2 {
				t.Errorf("shared route has %d parent statuses, want 2", len(route.Status.Parents))
			}
		})
	}
}
