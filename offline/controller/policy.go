package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// BackendTLSPolicyReconciler cleans up after Gateways that are gone: it
// removes the policy's status.ancestors entries that gwsim owns and whose
// Gateway no longer exists or is no longer gwsim's. Every other entry of
// gwsim's is the GatewayReconciler's to write, replace or drop, since only
// the Gateway knows whether it still reaches the policy's targets.
type BackendTLSPolicyReconciler struct{ Env }

var _ reconcile.Reconciler = &BackendTLSPolicyReconciler{}

// Reconcile reads the policy named by req and the Gateways its owned
// entries name, and writes its status if an entry was dropped.
func (r *BackendTLSPolicyReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	p := &gwv1.BackendTLSPolicy{}
	if err := r.Client.Get(ctx, req.NamespacedName, p, CachedRead); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	live := map[types.NamespacedName]bool{}
	var kept []gwv1.PolicyAncestorStatus
	for _, a := range p.Status.Ancestors {
		kind, key, ok := target(p.Namespace, a.AncestorRef.Group, a.AncestorRef.Kind, a.AncestorRef.Namespace, a.AncestorRef.Name)
		if !ok || kind != kindGateway || !owns(r.Options, string(a.ControllerName)) {
			kept = append(kept, a)
			continue
		}
		alive, seen := live[key]
		if !seen {
			var err error
			if alive, err = r.ownedGateway(ctx, key); err != nil {
				return reconcile.Result{}, fmt.Errorf("BackendTLSPolicy %s: %w", req.NamespacedName, err)
			}
			live[key] = alive
		}
		if alive {
			kept = append(kept, a)
		}
	}
	if len(kept) == len(p.Status.Ancestors) {
		return reconcile.Result{}, nil
	}
	p.Status.Ancestors = kept
	return reconcile.Result{}, r.Client.Status().Update(ctx, p)
}
