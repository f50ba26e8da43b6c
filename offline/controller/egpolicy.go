package controller

import (
	"context"
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/egpolicy"
)

// EGPolicyKind is one of Envoy Gateway's policy kinds, as the reconciler
// reads and writes it.
type EGPolicyKind struct {
	Kind    egpolicy.Kind
	New     func() client.Object
	NewList func() client.ObjectList
	// Status returns a pointer to the object's status.
	Status func(client.Object) *gwv1.PolicyStatus
}

// EGPolicyKinds returns Envoy Gateway's policy kinds in the order a pass
// visits them.
func EGPolicyKinds() []EGPolicyKind {
	return []EGPolicyKind{
		{Kind: egpolicy.ClientTraffic, New: func() client.Object { return &egv1a1.ClientTrafficPolicy{} },
			NewList: func() client.ObjectList { return &egv1a1.ClientTrafficPolicyList{} },
			Status:  func(o client.Object) *gwv1.PolicyStatus { return &o.(*egv1a1.ClientTrafficPolicy).Status }},
		{Kind: egpolicy.BackendTraffic, New: func() client.Object { return &egv1a1.BackendTrafficPolicy{} },
			NewList: func() client.ObjectList { return &egv1a1.BackendTrafficPolicyList{} },
			Status:  func(o client.Object) *gwv1.PolicyStatus { return &o.(*egv1a1.BackendTrafficPolicy).Status }},
		{Kind: egpolicy.Security, New: func() client.Object { return &egv1a1.SecurityPolicy{} },
			NewList: func() client.ObjectList { return &egv1a1.SecurityPolicyList{} },
			Status:  func(o client.Object) *gwv1.PolicyStatus { return &o.(*egv1a1.SecurityPolicy).Status }},
		{Kind: egpolicy.EnvoyExtension, New: func() client.Object { return &egv1a1.EnvoyExtensionPolicy{} },
			NewList: func() client.ObjectList { return &egv1a1.EnvoyExtensionPolicyList{} },
			Status:  func(o client.Object) *gwv1.PolicyStatus { return &o.(*egv1a1.EnvoyExtensionPolicy).Status }},
		{Kind: egpolicy.EnvoyPatch, New: func() client.Object { return &egv1a1.EnvoyPatchPolicy{} },
			NewList: func() client.ObjectList { return &egv1a1.EnvoyPatchPolicyList{} },
			Status:  func(o client.Object) *gwv1.PolicyStatus { return &o.(*egv1a1.EnvoyPatchPolicy).Status }},
	}
}

// EGPolicyReconciler writes the status.ancestors of one kind of Envoy
// Gateway policy. Which policy of a kind wins a target depends on every
// other policy of the kind, and a route policy's ancestors on the route's
// parent statuses, so it reads the policies of its kind, the Gateways,
// ListenerSets and routes with their status (written earlier in the
// pass), Namespaces and ReferenceGrants, and decides them all
// (translate.EGPolicies); it writes the one it reconciles. The loop
// reconciles every policy on every pass (see offline's targets), since no
// index names the policies that a route's or Gateway's status concerns.
type EGPolicyReconciler struct {
	Env
	Kind EGPolicyKind
}

var _ reconcile.Reconciler = &EGPolicyReconciler{}

// Reconcile computes the policy's ancestors and writes the entries gwsim
// owns; entries of other controllers stay.
func (r *EGPolicyReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	obj := r.Kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	res, err := r.Policies.result(func() (*egpolicy.Result, error) { return r.decide(ctx) })
	if err != nil {
		return reconcile.Result{}, fmt.Errorf("%s %s: %w", r.Kind.Kind, req.NamespacedName, err)
	}
	computed := res.Ancestors[r.Kind.Kind][req.NamespacedName]
	next := obj.DeepCopyObject().(client.Object)
	err = retryOnConflict(ctx, r.Client, next, r.Kind.New, func(o client.Object) bool {
		st := r.Kind.Status(o)
		merged := mergeAncestors(o.GetNamespace(), st.Ancestors, computed, func(a gwv1.PolicyAncestorStatus) bool {
			return owns(r.Options, string(a.ControllerName))
		})
		if equality.Semantic.DeepEqual(st.Ancestors, merged) {
			return false
		}
		*st = gwv1.PolicyStatus{Ancestors: merged}
		return true
	})
	if err != nil {
		return reconcile.Result{}, fmt.Errorf("writing status of %s %s: %w", r.Kind.Kind, req.NamespacedName, err)
	}
	return reconcile.Result{}, nil
}

// parentStatuses returns a route's parent statuses.
// decide reads the world the policies attach in and decides the
// attachment and status of every Envoy Gateway policy.
func (r *EGPolicyReconciler) decide(ctx context.Context) (*egpolicy.Result, error) {
	in, err := r.gatherPolicyWorld(ctx)
	if err != nil {
		return nil, err
	}
	in.Sources = r.Sources
	gateways := make(map[types.NamespacedName]*gwv1.Gateway, len(in.Gateways))
	for _, g := range in.Gateways {
		gateways[types.NamespacedName{Namespace: g.Namespace, Name: g.Name}] = g
	}
	return translate.EGPolicies(in, r.Options, translate.EGPolicyStatusView{
		Gateway: func(key types.NamespacedName) (gwv1.GatewayStatus, bool) {
			if g, ok := gateways[key]; ok {
				return g.Status, true
			}
			return gwv1.GatewayStatus{}, false
		},
		Parents: parentStatuses,
	}), nil
}

func parentStatuses(o client.Object) []gwv1.RouteParentStatus {
	switch r := o.(type) {
	case *gwv1.HTTPRoute:
		return r.Status.Parents
	case *gwv1.GRPCRoute:
		return r.Status.Parents
	case *gwv1.TLSRoute:
		return r.Status.Parents
	case *gwv1.TCPRoute:
		return r.Status.Parents
	case *gwv1.UDPRoute:
		return r.Status.Parents
	}
	return nil
}

// gatherPolicyWorld lists what policy attachment reads, as cached reads.
func (r *EGPolicyReconciler) gatherPolicyWorld(ctx context.Context) (translate.Input, error) {
	var in translate.Input
	lists := []func() client.ObjectList{
		func() client.ObjectList { return &gwv1.GatewayClassList{} },
		func() client.ObjectList { return &gwv1.GatewayList{} },
		func() client.ObjectList { return &gwv1.ListenerSetList{} },
		func() client.ObjectList { return &gwv1.ReferenceGrantList{} },
		func() client.ObjectList { return &corev1.NamespaceList{} },
		func() client.ObjectList { return &egv1a1.EnvoyProxyList{} },
		// What a policy's spec names (extAuth Services, OIDC Secrets, ...).
		func() client.ObjectList { return &corev1.ServiceList{} },
		func() client.ObjectList { return &corev1.SecretList{} },
		func() client.ObjectList { return &corev1.ConfigMapList{} },
	}
	// Every kind's policies, so that one decision serves the
	// reconcilers of all five (PolicyMemo); a kind's attachment does not
	// depend on the others'.
	for _, k := range EGPolicyKinds() {
		lists = append(lists, k.NewList)
	}
	for _, k := range RouteKinds() {
		lists = append(lists, k.NewList)
	}
	for _, newList := range lists {
		objs, err := ListObjects(ctx, r.Client, newList(), CachedRead)
		if err != nil {
			return in, err
		}
		for _, o := range objs {
			in.Add(o)
		}
	}
	return in, nil
}
