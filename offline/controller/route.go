package controller

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RouteReconciler cleans up after parents a route left: it removes the
// route's parent statuses that gwsim owns and whose parentRef is no longer
// in spec.parentRefs, or whose Gateway (directly or through a ListenerSet)
// is gone or no longer gwsim's. Everything else in a route's status is the
// GatewayReconciler's to write. One type serves every route kind.
type RouteReconciler struct {
	Env
	Kind RouteKind
}

var _ reconcile.Reconciler = &RouteReconciler{}

// Reconcile reads the route named by req, and the parents its owned status
// entries name, and writes the route's status if an entry was dropped.
func (r *RouteReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	o := r.Kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, o, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	spec, status := r.Kind.Access(o)
	// kept stays nil until an entry is dropped: a settled route, the usual
	// case, costs no allocation.
	var kept []gwv1.RouteParentStatus
	dropped := false
	for i, p := range status.Parents {
		stale, err := r.stale(ctx, o.GetNamespace(), p, spec.ParentRefs)
		if err != nil {
			return reconcile.Result{}, fmt.Errorf("%s %s: %w", r.Kind.Kind, req.NamespacedName, err)
		}
		switch {
		case stale && !dropped:
			kept = append(make([]gwv1.RouteParentStatus, 0, len(status.Parents)-1), status.Parents[:i]...)
			dropped = true
		case !stale && dropped:
			kept = append(kept, p)
		}
	}
	if !dropped {
		return reconcile.Result{}, nil
	}
	status.Parents = kept
	return reconcile.Result{}, r.Client.Status().Update(ctx, o)
}

// stale reports whether gwsim owns p and p's parent no longer holds the
// route: inSpec (the route's spec.parentRefs) no longer names it, or its
// Gateway is gone or not gwsim's.
func (r *RouteReconciler) stale(ctx context.Context, routeNS string, p gwv1.RouteParentStatus, inSpec []gwv1.ParentReference) (bool, error) {
	if !owns(r.Options, string(p.ControllerName)) {
		return false, nil
	}
	if !slices.ContainsFunc(inSpec, func(ref gwv1.ParentReference) bool { return sameParent(routeNS, ref, p.ParentRef) }) {
		return true, nil
	}
	kind, key, ok := parentTarget(routeNS, p.ParentRef)
	if !ok {
		return false, nil
	}
	switch kind {
	case kindGateway:
	case kindListenerSet:
		ls := &gwv1.ListenerSet{}
		if err := r.Client.Get(ctx, key, ls, CachedRead); err != nil {
			if apierrors.IsNotFound(err) {
				return true, nil
			}
			return false, err
		}
		ref := ls.Spec.ParentRef
		var parentOK bool
		if kind, key, parentOK = target(ls.Namespace, ref.Group, ref.Kind, ref.Namespace, ref.Name); !parentOK || kind != kindGateway {
			return true, nil
		}
	default:
		return false, nil
	}
	alive, err := r.ownedGateway(ctx, key)
	return !alive, err
}

// ownedGateway reports whether the Gateway key exists and its class exists
// and is gwsim's. The answer depends on the two objects' specs alone, so
// e.Reads keeps it for every reconcile of the loop.
func (e Env) ownedGateway(ctx context.Context, key types.NamespacedName) (bool, error) {
	owned, ok, epoch := e.Reads.ownedGateway(key)
	if ok {
		return owned, nil
	}
	owned, err := e.readOwnedGateway(ctx, key)
	if err == nil {
		e.Reads.rememberOwned(epoch, key, owned)
	}
	return owned, err
}

func (e Env) readOwnedGateway(ctx context.Context, key types.NamespacedName) (bool, error) {
	gw := &gwv1.Gateway{}
	if err := e.Client.Get(ctx, key, gw, CachedRead); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	class := &gwv1.GatewayClass{}
	if err := e.Client.Get(ctx, types.NamespacedName{Name: string(gw.Spec.GatewayClassName)}, class, CachedRead); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	return owns(e.Options, string(class.Spec.ControllerName)), nil
}
