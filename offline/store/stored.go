package store

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StoredObjects returns the objects List would copy into list (every
// object of its kind, sorted by namespace and name), not copies: the
// stored objects themselves. It is not part of client.Client. It exists
// for a reader that keeps the whole world, such as offline's read-back
// after the fixpoint: a List into a typed list copies every object's top
// level into the list's Items (about 450 bytes per object, 130 MB at
// 100,000 routes), a second copy of each object kept for as long as the
// world is.
//
// The store never modifies a stored object (a write stores a new one in
// its place), so each object returned stays as it was at the call, with
// the resourceVersion, generation and cleared TypeMeta that List would
// give it. The caller must not modify them, nor anything they point to.
// list is not filled.
func (s *Store) StoredObjects(list client.ObjectList) ([]client.Object, error) {
	k, err := s.kindOfList(list)
	if err != nil {
		return nil, err
	}
	return k.objects.list(), nil
}

// StoredObject returns the stored object of obj's kind named key (found
// false when there is none), not a copy: the object itself, under the same
// contract as StoredObjects. obj only names the kind and is not filled.
// It is not part of client.Client. It exists for readers that keep what
// they read for a while, such as the reconcilers' read memo: a Get with
// client.UnsafeDisableDeepCopy copies the object's top level (a Service's
// is about 600 bytes, 60 MB at 100,000 routes).
func (s *Store) StoredObject(key client.ObjectKey, obj client.Object) (client.Object, bool, error) {
	k, err := s.kindOf(obj)
	if err != nil {
		return nil, false, err
	}
	stored, ok := k.get(key.Namespace, key.Name)
	return stored, ok, nil
}
