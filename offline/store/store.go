package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Store is the indexed in-memory client. Build it with NewBuilder. It is safe
// for concurrent use.
type Store struct {
	scheme *runtime.Scheme
	mapper meta.RESTMapper
	// kinds is fixed at Build, so lookups need no lock.
	kinds map[schema.GroupVersionKind]*kind
	// byType and byListType are kinds by the Go type of their objects and
	// of their lists, for the types the scheme maps to one kind alone
	// (see indexTypes); fixed at Build.
	byType     map[reflect.Type]*kind
	byListType map[reflect.Type]listKind

	// mu serialises writes so that each read-check-write (AlreadyExists,
	// resourceVersion conflicts) is atomic. Reads go straight to the
	// tables, which lock themselves, and only ever see whole objects:
	// stored objects are replaced, never modified.
	mu     sync.Mutex
	lastRV uint64
	// lastCreated is the creationTimestamp the store last gave an object
	// (see nextCreationTimestamp).
	lastCreated time.Time
}

var _ client.Client = (*Store)(nil)

// Scheme returns the scheme the store was built with.
func (s *Store) Scheme() *runtime.Scheme { return s.scheme }

// RESTMapper returns the mapper built at Build over every stored kind.
func (s *Store) RESTMapper() meta.RESTMapper { return s.mapper }

// GroupVersionKindFor returns obj's GroupVersionKind from the scheme.
func (s *Store) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return apiutil.GVKForObject(obj, s.scheme)
}

// IsObjectNamespaced reports whether obj's kind is namespaced.
func (s *Store) IsObjectNamespaced(obj runtime.Object) (bool, error) {
	gvk, err := apiutil.GVKForObject(obj, s.scheme)
	if err != nil {
		return false, err
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	k, ok := s.kinds[gvk]
	if !ok {
		return false, fmt.Errorf("offline store: kind %s is not stored", gvk)
	}
	return k.namespaced, nil
}

// Get copies the stored object named by key into obj. With
// client.UnsafeDisableDeepCopy the copy is shallow, as from
// controller-runtime's cache: obj shares its slices, maps and pointers with
// the stored object, which the caller must not modify through them.
func (s *Store) Get(_ context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	k, err := s.kindOf(obj)
	if err != nil {
		return err
	}
	stored, ok := k.get(key.Namespace, key.Name)
	if !ok {
		return apierrors.NewNotFound(k.resource, key.Name)
	}
	o := client.GetOptions{}
	o.ApplyOptions(opts)
	if o.UnsafeDisableDeepCopy != nil && *o.UnsafeDisableDeepCopy {
		reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(stored).Elem())
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		return nil
	}
	writeBack(obj, stored)
	return nil
}

// List fills list with copies of the matching objects, sorted by namespace
// and name. With client.UnsafeDisableDeepCopy the copies are shallow (see
// Get): the list's items share their contents with the stored objects.
func (s *Store) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	k, err := s.kindOfList(list)
	if err != nil {
		return err
	}
	o := client.ListOptions{}
	o.ApplyOptions(opts)
	matched, err := k.selectObjects(o.Namespace, o.LabelSelector, o.FieldSelector)
	if err != nil {
		return err
	}
	shallow := o.UnsafeDisableDeepCopy != nil && *o.UnsafeDisableDeepCopy
	v := reflect.ValueOf(list).Elem()
	v.Set(reflect.Zero(v.Type()))
	if lk, ok := s.byListType[reflect.TypeOf(list)]; ok {
		lk.fill(v, matched, shallow)
		return nil
	}
	items := make([]runtime.Object, len(matched))
	for i, obj := range matched {
		var cp runtime.Object
		if shallow {
			cp = k.shallowCopy(obj)
		} else {
			cp = obj.DeepCopyObject()
		}
		cp.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		items[i] = cp
	}
	return meta.SetList(list, items)
}

// selectObjects returns the stored objects (not copies) in ns matching the
// label selector ls and the field selector fs, sorted by namespace and
// name; nil selectors match all. The narrowest index available answers
// first: a field index, then the namespace, then a full listing.
func (k *kind) selectObjects(ns string, ls labels.Selector, fs fields.Selector) ([]client.Object, error) {
	var objs []client.Object
	switch {
	case fs != nil:
		var err error
		if objs, err = k.selectByFields(fs, ns); err != nil {
			return nil, err
		}
	case ns != "":
		objs = k.objects.inNamespace(ns)
	default:
		objs = k.objects.list()
	}
	if ls != nil && !ls.Empty() {
		objs = slices.DeleteFunc(objs, func(o client.Object) bool { return !ls.Matches(labels.Set(o.GetLabels())) })
	}
	return objs, nil
}

// get returns the stored object (not a copy) named ns/name.
func (k *kind) get(ns, name string) (client.Object, bool) {
	return k.objects.get(types.NamespacedName{Namespace: ns, Name: name})
}

// kindOf resolves obj's kind and checks that obj is the kind's typed struct.
func (s *Store) kindOf(obj runtime.Object) (*kind, error) {
	if k, ok := s.byType[reflect.TypeOf(obj)]; ok && !reflect.ValueOf(obj).IsNil() {
		return k, nil
	}
	if err := rejectUntyped(obj); err != nil {
		return nil, err
	}
	gvk, err := apiutil.GVKForObject(obj, s.scheme)
	if err != nil {
		return nil, err
	}
	k, ok := s.kinds[gvk]
	if !ok {
		return nil, fmt.Errorf("offline store: kind %s is not stored", gvk)
	}
	if t := reflect.TypeOf(obj); t != reflect.PointerTo(k.goType) {
		return nil, fmt.Errorf("offline store: %s is stored as *%s, got %s", gvk, k.goType, t)
	}
	return k, nil
}

// kindOfList resolves the item kind of a typed list.
func (s *Store) kindOfList(list client.ObjectList) (*kind, error) {
	if lk, ok := s.byListType[reflect.TypeOf(list)]; ok && !reflect.ValueOf(list).IsNil() {
		return lk.kind, nil
	}
	if err := rejectUntyped(list); err != nil {
		return nil, err
	}
	gvk, err := apiutil.GVKForObject(list, s.scheme)
	if err != nil {
		return nil, err
	}
	item := gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List"))
	k, ok := s.kinds[item]
	if !ok {
		return nil, fmt.Errorf("offline store: kind %s is not stored", item)
	}
	return k, nil
}

// rejectUntyped refuses nil, unstructured and metadata-only objects, which
// the store cannot hold.
func rejectUntyped(obj runtime.Object) error {
	if v := reflect.ValueOf(obj); obj == nil || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return fmt.Errorf("offline store: nil %T", obj)
	}
	switch obj.(type) {
	case runtime.Unstructured, *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
		return fmt.Errorf("offline store: %T is not supported; use the typed object registered in the scheme", obj)
	}
	return nil
}

// writeBack copies stored into dst, which must be of the same type, with
// TypeMeta cleared as the fake client clears it for typed objects.
func writeBack(dst client.Object, stored client.Object) {
	cp := stored.DeepCopyObject()
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(cp).Elem())
	dst.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}
