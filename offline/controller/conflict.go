package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// maxConflictRetries bounds retryOnConflict. Only the reconciles of one
// pass that share the object compete for it, so a few rounds always do.
const maxConflictRetries = 10

// retryOnConflict merges this reconcile's share into obj's status and
// writes it, as a controller sharing status with others must: merge
// changes obj in place and reports whether there is anything to write; on
// a conflict (someone wrote obj since it was read) obj is read again, into
// a fresh object from newObj, and merged again. The merge only replaces
// what this reconcile owns, so the result does not depend on who wrote
// first.
func retryOnConflict(ctx context.Context, c client.Client, obj client.Object, newObj func() client.Object, merge func(client.Object) bool) error {
	for range maxConflictRetries {
		if !merge(obj) {
			return nil
		}
		err := c.Status().Update(ctx, obj)
		if !apierrors.IsConflict(err) {
			return err
		}
		fresh := newObj()
		if err := c.Get(ctx, client.ObjectKeyFromObject(obj), fresh, CachedRead); err != nil {
			return client.IgnoreNotFound(err)
		}
		obj = fresh
	}
	return fmt.Errorf("%s/%s: still conflicting after %d attempts", obj.GetNamespace(), obj.GetName(), maxConflictRetries)
}
