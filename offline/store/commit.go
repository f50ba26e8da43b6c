package store

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// commit is the write path Update, Patch and the status writers share. in
// is the caller's new object (a copy the store owns), old the stored one.
// It applies status-subresource semantics, checks the resourceVersion,
// assigns the next resourceVersion and generation, and stores the result,
// which it returns. Stored objects are never modified afterwards, so the
// result may share unchanged parts with old.
func (k *kind) commit(old, in client.Object, status bool, nextRV func() string) (client.Object, error) {
	next := in
	switch {
	case k.hasStatus && status:
		// Only status moves; every other field, including metadata, stays
		// as stored. The caller's resourceVersion still guards the write.
		next = k.shallowCopy(old)
		k.setStatus(next, in)
		next.SetResourceVersion(in.GetResourceVersion())
	case k.hasStatus:
		k.setStatus(next, old)
	case status:
		return nil, apierrors.NewNotFound(k.resource, in.GetName())
	}
	if next.GetResourceVersion() != old.GetResourceVersion() {
		return nil, apierrors.NewConflict(k.resource, in.GetName(), errors.New("object was modified"))
	}
	if !sameDeletionTimestamp(next.GetDeletionTimestamp(), old.GetDeletionTimestamp()) {
		return nil, fmt.Errorf("error: Unable to edit %s: metadata.deletionTimestamp field is immutable", in.GetName())
	}
	generation := old.GetGeneration()
	if !status && k.specChanged(old, next) {
		generation++
	}
	// creationTimestamp is immutable: the apiserver keeps the stored one
	// whatever the caller sends.
	next.SetCreationTimestamp(old.GetCreationTimestamp())
	next.SetGeneration(generation)
	next.SetResourceVersion(nextRV())
	clearServerOnly(next)
	k.objects.replace(old, next, k.hasStatus && status)
	return next, nil
}

// setStatus makes dst's Status field src's (shared, not copied).
func (k *kind) setStatus(dst, src client.Object) {
	reflect.ValueOf(dst).Elem().FieldByIndex(k.statusField).Set(reflect.ValueOf(src).Elem().FieldByIndex(k.statusField))
}

// shallowCopy returns a new object whose top-level fields are obj's. Only
// safe because stored objects are never modified in place.
func (k *kind) shallowCopy(obj client.Object) client.Object {
	cp := reflect.New(k.goType)
	cp.Elem().Set(reflect.ValueOf(obj).Elem())
	return cp.Interface().(client.Object)
}

// specChanged reports whether anything other than metadata and status
// differs, which is when the apiserver bumps metadata.generation.
func (k *kind) specChanged(old, next client.Object) bool {
	ov, nv := reflect.ValueOf(old).Elem(), reflect.ValueOf(next).Elem()
	for _, i := range k.specFields {
		if !equality.Semantic.DeepEqual(ov.Field(i).Interface(), nv.Field(i).Interface()) {
			return true
		}
	}
	return false
}

// specFieldsOf lists the top-level fields of a kind's struct that count
// as spec for generation purposes: all but TypeMeta, ObjectMeta and Status.
func specFieldsOf(t reflect.Type) []int {
	var idx []int
	for i := range t.NumField() {
		switch t.Field(i).Name {
		case "TypeMeta", "ObjectMeta", "Status":
			continue
		}
		idx = append(idx, i)
	}
	return idx
}

// sameDeletionTimestamp compares with the fake client's one-second
// tolerance, since a timestamp that went through JSON loses sub-seconds.
func sameDeletionTimestamp(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Sub(b.Time).Abs() < time.Second
}

// clearServerOnly drops what the store never keeps or returns: TypeMeta
// (the fake client clears it on typed objects) and managedFields.
func clearServerOnly(obj client.Object) {
	clearTypeMeta(obj)
	obj.SetManagedFields(nil)
}

func clearTypeMeta(obj client.Object) {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}
