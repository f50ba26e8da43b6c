package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// GatewayClassReconciler writes the status Translate computes for a
// GatewayClass of gwsim's, from the class and what its parametersRef
// names. Classes Translate has no status for belong to
// another controller and are left untouched.
type GatewayClassReconciler struct{ Env }

var _ reconcile.Reconciler = &GatewayClassReconciler{}

// Reconcile reads the class named by req and writes its status if it changed.
func (r *GatewayClassReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	class := &gwv1.GatewayClass{}
	if err := r.Client.Get(ctx, req.NamespacedName, class, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	in, err := r.classInput(ctx, class)
	if err != nil {
		return reconcile.Result{}, err
	}
	out := r.translate(in)
	next, ok := out.Status.GatewayClasses[types.NamespacedName{Name: class.Name}]
	if !ok {
		return reconcile.Result{}, nil
	}
	next = keepClassTimes(class.Status, next)
	if equality.Semantic.DeepEqual(class.Status, next) {
		return reconcile.Result{}, nil
	}
	class.Status = next
	return reconcile.Result{}, r.Client.Status().Update(ctx, class)
}
