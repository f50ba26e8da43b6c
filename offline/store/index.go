package store

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// selectByFields returns the stored objects of k in ns (every namespace
// when ns is empty) matching every requirement of sel, sorted by namespace
// and name. The first requirement is an index lookup; the others filter
// its result. Errors match the fake client's for selectors that are not
// exact matches and for fields without an index.
//
// controller-runtime's cache keys a field index by namespace and value,
// and again by value alone, so that a lookup with or without a namespace
// is one map access; here each value is held once, sorted by namespace,
// and a namespace is a range of it (table.byValue). The answers are the
// same: a cluster-scoped object matches only without a namespace.
func (k *kind) selectByFields(sel fields.Selector, ns string) ([]client.Object, error) {
	reqs := sel.Requirements()
	if len(reqs) == 0 {
		return nil, fmt.Errorf(`field selector %s is not in one of the two supported forms "key==val" or "key=val"`, sel)
	}
	for _, req := range reqs {
		if req.Operator != selection.Equals && req.Operator != selection.DoubleEquals {
			return nil, fmt.Errorf(`field selector %s is not in one of the two supported forms "key==val" or "key=val"`, sel)
		}
		if k.objects.index(req.Field) == nil {
			return nil, fmt.Errorf("List on GroupVersionKind %v specifies selector on field %s, but no "+
				"index with name %s has been registered for GroupVersionKind %v", k.gvk, req.Field, req.Field, k.gvk)
		}
	}
	objs := k.objects.byValue(k.objects.index(reqs[0].Field), reqs[0].Value, ns)
	for _, req := range reqs[1:] {
		extract := k.objects.index(req.Field).extract
		objs = slices.DeleteFunc(objs, func(o client.Object) bool {
			return !slices.Contains(extract(o), req.Value)
		})
	}
	return objs, nil
}
