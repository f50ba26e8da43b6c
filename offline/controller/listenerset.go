package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// writeListenerSets writes the status of every ListenerSet gathered for a
// Gateway, as computed. A ListenerSet's status is a function of its
// parent Gateway's slice of the world alone (the Gateway, its other
// ListenerSets, which precede or follow it, and what their listeners
// reference), so the Gateway's reconcile owns it; a ListenerSet with no
// computed status (its parentRef is not this Gateway) is left alone.
func (r *GatewayReconciler) writeListenerSets(ctx context.Context, s *slice, computed map[types.NamespacedName]gwv1.ListenerSetStatus) error {
	for _, ls := range s.in.ListenerSets {
		key := types.NamespacedName{Namespace: ls.Namespace, Name: ls.Name}
		next, ok := computed[key]
		if !ok {
			continue
		}
		next = keepListenerSetTimes(ls.Status, next)
		if equality.Semantic.DeepEqual(ls.Status, next) {
			continue
		}
		ls.Status = next
		if err := r.Client.Status().Update(ctx, ls); err != nil {
			return fmt.Errorf("writing status of ListenerSet %s: %w", key, err)
		}
	}
	return nil
}
