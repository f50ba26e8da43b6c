package controller

import (
	"context"
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// writeBackends writes the status Translate computed for the Envoy Gateway
// Backends the Gateway's routes name. Envoy Gateway owns a Backend's
// status whole, and every Gateway whose routes name the Backend computes
// the same one (it depends on the Backend and the BackendTLSPolicies
// targeting it alone), so the first write settles it and the others
// write nothing.
func (r *GatewayReconciler) writeBackends(ctx context.Context, s *slice, computed map[types.NamespacedName]egv1a1.BackendStatus) error {
	for _, be := range s.in.Backends {
		next, ok := computed[client.ObjectKeyFromObject(be)]
		if !ok {
			continue
		}
		// The slice holds cached reads, which are not to be changed.
		obj := be.DeepCopy()
		err := retryOnConflict(ctx, r.Client, obj, func() client.Object { return &egv1a1.Backend{} }, func(o client.Object) bool {
			b := o.(*egv1a1.Backend)
			st := egv1a1.BackendStatus{Conditions: keepTimes(b.Status.Conditions, next.Conditions)}
			if equality.Semantic.DeepEqual(b.Status, st) {
				return false
			}
			b.Status = st
			return true
		})
		if err != nil {
			return fmt.Errorf("writing status of Backend %s/%s: %w", be.Namespace, be.Name, err)
		}
	}
	return nil
}
