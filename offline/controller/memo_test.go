package controller

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/egpolicy"
)

// backendReads are the recorded reads of a backend or of whether a Gateway
// is gwsim's: what ReadMemo may spare.
func backendReads(calls []string) []string {
	var out []string
	for _, c := range calls {
		if strings.Contains(c, "Service ") || strings.Contains(c, "targetService=") {
			out = append(out, c)
		}
	}
	return out
}

func TestReadMemoReadsBackendsOncePerEpoch(t *testing.T) {
	rec := &recorder{Client: newClient(t, readWorld()...)}
	epoch := uint64(0)
	var inputs []translate.Input
	capture := func(in translate.Input, opts translate.Options) translate.Output {
		inputs = append(inputs, in)
		return stubTranslate(in, opts)
	}
	env := Env{Client: rec, Options: testOptions(), Translate: capture, Reads: NewReadMemo(func() uint64 { return epoch })}
	reconcileGateway := func() []string {
		t.Helper()
		rec.calls = nil
		// A new reconciler each time: its own memory of settled slices
		// would skip the Translate compared below.
		r := &GatewayReconciler{Env: env}
		if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}); err != nil {
			t.Fatal(err)
		}
		return backendReads(rec.calls)
	}
	all := []string{
		"Get Service apps/db", "List BackendTLSPolicy targetService=apps/db",
		"Get Service apps/nosvc", "List BackendTLSPolicy targetService=apps/nosvc",
		"Get Service apps/web", "List BackendTLSPolicy targetService=apps/web",
		"Get Service backend/api", "List BackendTLSPolicy targetService=backend/api",
	}
	if d := cmp.Diff(all, reconcileGateway()); d != "" {
		t.Errorf("first reconcile's backend reads (-want +got):\n%s", d)
	}
	// The policies targeting a backend are read again (their status is
	// written by the reconcilers); nothing else is.
	if d := cmp.Diff([]string{"List BackendTLSPolicy targetService=apps/web"}, reconcileGateway()); d != "" {
		t.Errorf("second reconcile's backend reads (-want +got):\n%s", d)
	}
	epoch++
	if d := cmp.Diff(all, reconcileGateway()); d != "" {
		t.Errorf("backend reads in a new epoch (-want +got):\n%s", d)
	}
	for i, in := range inputs[1:] {
		if d := cmp.Diff(inputNames(inputs[0]), inputNames(in)); d != "" {
			t.Errorf("Translate input of reconcile %d differs from the first's (-first +later):\n%s", i+2, d)
		}
	}
}

func TestReadMemoKnowsOwnedGatewaysOncePerEpoch(t *testing.T) {
	rec := &recorder{Client: newClient(t, readWorld()...)}
	epoch := uint64(0)
	env := Env{Client: rec, Options: testOptions(), Reads: NewReadMemo(func() uint64 { return epoch })}
	gateways := func() int {
		n := 0
		for _, c := range rec.calls {
			if strings.HasPrefix(c, "Get Gateway") {
				n++
			}
		}
		rec.calls = nil
		return n
	}
	for _, key := range []types.NamespacedName{{Namespace: "infra", Name: "gw"}, {Namespace: "infra", Name: "other"}} {
		for range 2 {
			if _, err := env.ownedGateway(context.Background(), key); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := gateways(); n != 3 { // gw and its class, other (missing)
		t.Errorf("Gets of Gateways and classes, two questions each about two Gateways: %d, want 3", n)
	}
	epoch++
	owned, err := env.ownedGateway(context.Background(), types.NamespacedName{Namespace: "infra", Name: "gw"})
	if err != nil || !owned {
		t.Errorf("ownedGateway(infra/gw) = %v, %v; want true", owned, err)
	}
	if n := gateways(); n != 2 {
		t.Errorf("Gets in a new epoch: %d, want 2", n)
	}
}

func TestSameParentIsEqualParentKeys(t *testing.T) {
	ns := func(s string) *gwv1.Namespace { return ptr(gwv1.Namespace(s)) }
	section := func(s string) *gwv1.SectionName { return ptr(gwv1.SectionName(s)) }
	port := func(p gwv1.PortNumber) *gwv1.PortNumber { return &p }
	refs := []gwv1.ParentReference{
		gwRef("", "gw"), gwRef("apps", "gw"), gwRef("infra", "gw"), gwRef("infra", "other"),
		{Name: "gw"}, {Name: "gw", Namespace: ns("")},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("ListenerSet")), Name: "gw"},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("Gateway")), Name: "gw", SectionName: section("http")},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("Gateway")), Name: "gw", SectionName: section("")},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("Gateway")), Name: "gw", Port: port(80)},
		{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("Gateway")), Name: "gw", Port: port(0)},
	}
	for _, a := range refs {
		for _, b := range refs {
			want := parentKey("apps", a) == parentKey("apps", b)
			if got := sameParent("apps", a, b); got != want {
				t.Errorf("sameParent(%s, %s) = %v, want %v (parentKey equality)", parentKey("apps", a), parentKey("apps", b), got, want)
			}
		}
	}
	if !slices.ContainsFunc(refs, func(r gwv1.ParentReference) bool { return sameParent("apps", r, gwRef("apps", "gw")) }) {
		t.Error("no ref is the same parent as itself")
	}
}

func TestReadMemoListsNoPoliciesInAWorldWithout(t *testing.T) {
	var objs []client.Object
	for _, o := range readWorld() {
		if _, ok := o.(*gwv1.BackendTLSPolicy); !ok {
			objs = append(objs, o)
		}
	}
	rec := &recorder{Client: newClient(t, objs...)}
	epoch := uint64(0)
	env := Env{Client: rec, Options: testOptions(), Translate: stubTranslate, Reads: NewReadMemo(func() uint64 { return epoch })}
	policyLists := func() []string {
		t.Helper()
		rec.calls = nil
		r := &GatewayReconciler{Env: env}
		if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "infra", Name: "gw"}}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range rec.calls {
			if strings.HasPrefix(c, "List BackendTLSPolicy") && !strings.Contains(c, "ancestorGateway=") {
				out = append(out, c)
			}
		}
		return out
	}
	once := []string{"List BackendTLSPolicy"}
	if d := cmp.Diff(once, policyLists()); d != "" {
		t.Errorf("first reconcile's policy Lists (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string(nil), policyLists()); d != "" {
		t.Errorf("second reconcile's policy Lists (-want +got):\n%s", d)
	}
	epoch++
	if d := cmp.Diff(once, policyLists()); d != "" {
		t.Errorf("policy Lists in a new epoch (-want +got):\n%s", d)
	}
}

// TestPolicyMemo: the decision is kept while the epoch stays and taken
// again when it moves; an error is not kept; a nil memo decides each time.
func TestPolicyMemo(t *testing.T) {
	epoch, decisions := uint64(0), 0
	decide := func() (*egpolicy.Result, error) { decisions++; return &egpolicy.Result{}, nil }
	m := NewPolicyMemo(func() uint64 { return epoch })
	first, _ := m.result(decide)
	if again, _ := m.result(decide); again != first || decisions != 1 {
		t.Fatalf("same epoch: %d decisions, same result %v; want 1, true", decisions, again == first)
	}
	epoch++
	if next, _ := m.result(decide); next == first || decisions != 2 {
		t.Fatalf("new epoch: %d decisions, new result %v; want 2, true", decisions, next != first)
	}
	epoch++
	if _, err := m.result(func() (*egpolicy.Result, error) { return nil, errors.New("read failed") }); err == nil {
		t.Fatal("an error of decide is returned")
	}
	var none *PolicyMemo
	none.result(decide)
	none.result(decide)
	if decisions != 4 {
		t.Fatalf("nil memo: %d decisions, want 4", decisions)
	}
}
