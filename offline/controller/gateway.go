package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// GatewayReconciler computes one Gateway's status, the status of the
// ListenerSets whose parentRef names it, and the parent statuses of the
// routes attached to it (directly or through its ListenerSets), from the
// slice of the world that Gateway depends on. Gateways of a class that
// is missing or not gwsim's are left untouched; RouteReconciler drops the
// route parent statuses gwsim wrote for them.
//
// A reconcile whose slice is exactly as the previous reconcile of the same
// Gateway left it (same objects at the same resourceVersions, its own
// writes included) writes nothing and is skipped: Translate is a pure
// function of the slice. The fixpoint loop reconciles a Gateway again only
// when a write requeued it; this skip covers a requeue whose writes left
// the slice as it was.
type GatewayReconciler struct {
	Env
	settled settledSlices
}

var _ reconcile.Reconciler = &GatewayReconciler{}

// Reconcile reads the Gateway named by req and what it depends on, and
// writes the statuses that changed.
func (r *GatewayReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	gw := &gwv1.Gateway{}
	if err := r.Client.Get(ctx, req.NamespacedName, gw, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	class := &gwv1.GatewayClass{}
	if err := r.Client.Get(ctx, types.NamespacedName{Name: string(gw.Spec.GatewayClassName)}, class, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !owns(r.Options, string(class.Spec.ControllerName)) {
		return reconcile.Result{}, nil
	}
	s, err := r.gather(ctx, gw, class)
	if err != nil {
		return reconcile.Result{}, err
	}
	if r.settled.unchanged(req.NamespacedName, s.fingerprint()) {
		return reconcile.Result{}, nil
	}
	out := r.translate(s.in)
	if next, ok := out.Status.Gateways[req.NamespacedName]; ok {
		next = keepGatewayTimes(gw.Status, next)
		if !equality.Semantic.DeepEqual(gw.Status, next) {
			gw.Status = next
			if err := r.Client.Status().Update(ctx, gw); err != nil {
				return reconcile.Result{}, fmt.Errorf("writing status of Gateway %s: %w", req.NamespacedName, err)
			}
		}
	}
	if err := r.writeListenerSets(ctx, s, out.Status.ListenerSets); err != nil {
		return reconcile.Result{}, err
	}
	names := func(routeNS string, ref gwv1.ParentReference) bool {
		kind, key, ok := parentTarget(routeNS, ref)
		switch {
		case !ok:
			return false
		case kind == kindGateway:
			return key == req.NamespacedName
		}
		return kind == kindListenerSet && s.hasListenerSet(key)
	}
	for _, rt := range s.routes {
		ref := diag.ObjectRef{Kind: rt.kind.Kind, Namespace: rt.obj.GetNamespace(), Name: rt.obj.GetName()}
		if err := r.writeRoute(ctx, rt, out.Status.Routes[ref], names); err != nil {
			return reconcile.Result{}, fmt.Errorf("writing status of %s: %w", ref, err)
		}
	}
	if err := r.writePolicies(ctx, req.NamespacedName, s, out.Status.BackendTLSPolicies); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.writeBackends(ctx, s, out.Status.Backends); err != nil {
		return reconcile.Result{}, err
	}
	r.settled.record(req.NamespacedName, s.fingerprint())
	return reconcile.Result{}, nil
}

// writeRoute replaces the route's parent statuses that gwsim owns for this
// Gateway (or its ListenerSets) by computed, and writes when that changed.
// Computed entries for any other parent are dropped: this reconcile could
// never replace them again.
func (r *GatewayReconciler) writeRoute(ctx context.Context, rt attachedRoute, computed []gwv1.RouteParentStatus, names func(string, gwv1.ParentReference) bool) error {
	ns := rt.obj.GetNamespace()
	ours := func(p gwv1.RouteParentStatus) bool {
		return owns(r.Options, string(p.ControllerName)) && names(ns, p.ParentRef)
	}
	var mine []gwv1.RouteParentStatus
	for _, c := range computed {
		if ours(c) {
			mine = append(mine, c)
		}
	}
	return retryOnConflict(ctx, r.Client, rt.obj, rt.kind.New, func(obj client.Object) bool {
		spec, status := rt.kind.Access(obj)
		merged := mergeParents(ns, spec.ParentRefs, status.Parents, mine, ours)
		if equality.Semantic.DeepEqual(status.Parents, merged) {
			return false
		}
		status.Parents = merged
		return true
	})
}

func (s *slice) hasListenerSet(key types.NamespacedName) bool {
	for _, ls := range s.in.ListenerSets {
		if ls.Namespace == key.Namespace && ls.Name == key.Name {
			return true
		}
	}
	return false
}
