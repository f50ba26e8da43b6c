package store

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// allNamespaces is the namespace part of a field index key that matches in
// every namespace. The key layout is controller-runtime's cache's
// (pkg/cache/internal KeyToNamespacedKey), so the two behave alike.
const allNamespaces = "__all_namespaces"

// fieldIndexName is the indexer's name for the index over field.
func fieldIndexName(field string) string {
	return "field:" + field
}

// namespacedKey is the index key for value among objects in ns; an empty ns
// means every namespace.
func namespacedKey(ns, value string) string {
	if ns == "" {
		return allNamespaces + "/" + value
	}
	return ns + "/" + value
}

// namespacedIndexFunc wraps a client.IndexerFunc so that each value is indexed
// twice for a namespaced object, once under its namespace and once under
// allNamespaces, which lets a field selector be answered by one lookup with
// or without client.InNamespace.
func namespacedIndexFunc(fn client.IndexerFunc) cache.IndexFunc {
	return func(raw any) ([]string, error) {
		obj, ok := raw.(client.Object)
		if !ok {
			return nil, fmt.Errorf("bug: indexed %T, which is not a client.Object", raw)
		}
		values := fn(obj)
		ns := obj.GetNamespace()
		keys := make([]string, 0, 2*len(values))
		for _, v := range values {
			keys = append(keys, namespacedKey("", v))
			if ns != "" {
				keys = append(keys, namespacedKey(ns, v))
			}
		}
		return keys, nil
	}
}

// selectByFields returns the stored objects of k in ns matching every
// requirement of sel. The first requirement is an index lookup; the others
// filter its result. Errors match the fake client's for selectors that are
// not exact matches and for fields without an index.
func (k *kind) selectByFields(sel fields.Selector, ns string) ([]any, error) {
	reqs := sel.Requirements()
	if len(reqs) == 0 {
		return nil, fmt.Errorf(`field selector %s is not in one of the two supported forms "key==val" or "key=val"`, sel)
	}
	for _, req := range reqs {
		if req.Operator != selection.Equals && req.Operator != selection.DoubleEquals {
			return nil, fmt.Errorf(`field selector %s is not in one of the two supported forms "key==val" or "key=val"`, sel)
		}
		if k.fields[req.Field] == nil {
			return nil, fmt.Errorf("List on GroupVersionKind %v specifies selector on field %s, but no "+
				"index with name %s has been registered for GroupVersionKind %v", k.gvk, req.Field, req.Field, k.gvk)
		}
	}
	objs, err := k.indexer.ByIndex(fieldIndexName(reqs[0].Field), namespacedKey(ns, reqs[0].Value))
	if err != nil {
		return nil, err
	}
	for _, req := range reqs[1:] {
		fn := k.fields[req.Field]
		objs = slices.DeleteFunc(objs, func(raw any) bool {
			return !slices.Contains(fn(raw.(client.Object)), req.Value)
		})
	}
	return objs, nil
}
