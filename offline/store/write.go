package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// generateNameMax keeps a generated name within 63 characters, as the
// apiserver and the fake client do.
const generateNameMax = 63 - 5

// creationEpoch is where the store's clock starts (2000-01-01T00:00:00Z,
// in Unix seconds) when no initial object is newer.
const creationEpoch = 946684800

// nextCreationTimestamp is the creationTimestamp of an object Create
// stores. The apiserver sets it from its clock, and precedence rules
// (oldest first) depend on it, so it must grow from one Create to the
// next: the store's clock is a counter that starts after every initial
// object's creationTimestamp and ticks one second per Create, the
// granularity a creationTimestamp keeps. Runs stay reproducible. s.mu must
// be held.
func (s *Store) nextCreationTimestamp() metav1.Time {
	if s.lastCreated.IsZero() {
		s.lastCreated = time.Unix(creationEpoch, 0).UTC()
	}
	s.lastCreated = s.lastCreated.Add(time.Second)
	return metav1.NewTime(s.lastCreated)
}

// nextResourceVersion takes the next value of the store-wide counter.
// s.mu must be held.
func (s *Store) nextResourceVersion() string {
	s.lastRV++
	return strconv.FormatUint(s.lastRV, 10)
}

// addInitial copies an initial object (deeply, or only its top level when
// shared) into k's building table and returns the copy, or the error that
// keeps it out. The copy's resourceVersion, when it has none, is set by
// Store.addInitial, which numbers the objects in input order.
func (k *kind) addInitial(o initialObject) (client.Object, error) {
	obj := o.obj
	if _, exists := k.get(obj.GetNamespace(), obj.GetName()); exists {
		return nil, apierrors.NewAlreadyExists(k.resource, obj.GetName())
	}
	var cp client.Object
	if o.shared {
		cp = k.shallowCopy(obj)
	} else {
		cp = obj.DeepCopyObject().(client.Object)
	}
	if cp.GetGeneration() == 0 {
		cp.SetGeneration(1)
	}
	clearServerOnly(cp)
	k.objects.add(cp)
	return cp, nil
}

// noteCreated keeps the latest creationTimestamp of the initial objects,
// after which the store dates the objects it creates.
func (s *Store) noteCreated(obj client.Object) {
	if created := obj.GetCreationTimestamp().Time.Truncate(time.Second); created.After(s.lastCreated) {
		s.lastCreated = created.UTC()
	}
}

// Create stores a copy of obj and writes the stored object back into obj.
func (s *Store) Create(_ context.Context, obj client.Object, opts ...client.CreateOption) error {
	o := client.CreateOptions{}
	o.ApplyOptions(opts)
	return s.write(obj, o.DryRun, func(k *kind) error { return s.create(k, obj) })
}

// create is Create on obj's kind k; s.mu must be held.
func (s *Store) create(k *kind, obj client.Object) error {
	clearServerOnly(obj)
	obj.SetDeletionTimestamp(nil)
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		obj.SetName(k.generateName(obj.GetNamespace(), obj.GetGenerateName(), s.lastRV))
	}
	if obj.GetName() == "" {
		return apierrors.NewInvalid(k.gvk.GroupKind(), "",
			field.ErrorList{field.Required(field.NewPath("metadata.name"), "name is required")})
	}
	if obj.GetResourceVersion() != "" {
		return apierrors.NewBadRequest("resourceVersion can not be set for Create requests")
	}
	// The fake client takes a resourceVersion before it finds a name
	// clash; doing the same keeps the two numberings identical.
	rv := s.nextResourceVersion()
	if _, exists := k.get(obj.GetNamespace(), obj.GetName()); exists {
		return apierrors.NewAlreadyExists(k.resource, obj.GetName())
	}
	obj.SetResourceVersion(rv)
	if obj.GetGeneration() == 0 {
		obj.SetGeneration(1)
	}
	obj.SetCreationTimestamp(s.nextCreationTimestamp())
	k.objects.add(obj.DeepCopyObject().(client.Object))
	return nil
}

// generateName picks the first free name base+suffix, with suffixes derived
// from seed so that runs are reproducible.
func (k *kind) generateName(ns, base string, seed uint64) string {
	if len(base) > generateNameMax {
		base = base[:generateNameMax]
	}
	for n := seed; ; n++ {
		name := fmt.Sprintf("%s%05s", base, strconv.FormatUint(n, 36))
		if _, exists := k.get(ns, name); !exists {
			return name
		}
	}
}

// Update replaces the stored object with obj, keeping the stored status when
// the kind has a status subresource, and writes the result back into obj.
func (s *Store) Update(_ context.Context, obj client.Object, opts ...client.UpdateOption) error {
	o := client.UpdateOptions{}
	o.ApplyOptions(opts)
	return s.update(obj, false, o.DryRun)
}

// update is Update (status false) and Status().Update (status true).
func (s *Store) update(obj client.Object, status bool, dryRun []string) error {
	return s.write(obj, dryRun, func(k *kind) error { return s.updateKind(k, obj, status) })
}

// updateKind is update on obj's kind k; s.mu must be held.
func (s *Store) updateKind(k *kind, obj client.Object, status bool) error {
	old, err := k.existing(obj)
	if err != nil {
		return err
	}
	statusOnly := status && k.hasStatus
	var in client.Object
	if statusOnly {
		in = k.statusCopy(obj)
	} else {
		in = obj.DeepCopyObject().(client.Object)
	}
	if in.GetResourceVersion() == "" && k.unconditionalUpdate {
		in.SetResourceVersion(old.GetResourceVersion())
	}
	next, err := k.commit(old, in, status, s.nextResourceVersion)
	if err != nil {
		clearTypeMeta(obj)
		return err
	}
	if statusOnly {
		k.writeBackStatus(obj, next)
	} else {
		writeBack(obj, next)
	}
	return nil
}

// existing returns the stored object obj names, or the apiserver's error.
func (k *kind) existing(obj client.Object) (client.Object, error) {
	if obj.GetName() == "" {
		return nil, apierrors.NewInvalid(k.gvk.GroupKind(), "",
			field.ErrorList{field.Required(field.NewPath("metadata.name"), "name is required")})
	}
	old, ok := k.get(obj.GetNamespace(), obj.GetName())
	if !ok {
		return nil, apierrors.NewNotFound(k.resource, obj.GetName())
	}
	return old, nil
}

// Delete removes obj's stored object, checking resourceVersion and UID
// preconditions. There are no finalizers: removal is immediate.
func (s *Store) Delete(_ context.Context, obj client.Object, opts ...client.DeleteOption) error {
	o := client.DeleteOptions{}
	o.ApplyOptions(opts)
	return s.write(obj, o.DryRun, func(k *kind) error {
		old, ok := k.get(obj.GetNamespace(), obj.GetName())
		if !ok {
			return apierrors.NewNotFound(k.resource, obj.GetName())
		}
		if err := k.checkPreconditions(old, o.Preconditions); err != nil {
			return err
		}
		k.objects.remove(old)
		return nil
	})
}

// checkPreconditions enforces a Delete's preconditions with the fake
// client's (and apiserver's) Conflict error.
func (k *kind) checkPreconditions(old client.Object, p *metav1.Preconditions) error {
	if p == nil {
		return nil
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != old.GetResourceVersion() {
		return apierrors.NewConflict(k.resource, old.GetName(), fmt.Errorf(
			"the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). "+
				"The object might have been modified", *p.ResourceVersion, old.GetResourceVersion()))
	}
	if p.UID != nil && *p.UID != old.GetUID() {
		return apierrors.NewConflict(k.resource, old.GetName(), fmt.Errorf(
			"the UID in the precondition (%s) does not match the UID in record (%s). "+
				"The object might have been deleted and then recreated", *p.UID, old.GetUID()))
	}
	return nil
}

// DeleteAllOf removes every object of obj's kind matching the namespace,
// label and field selectors in opts.
func (s *Store) DeleteAllOf(_ context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	o := client.DeleteAllOfOptions{}
	o.ApplyOptions(opts)
	return s.write(obj, o.DryRun, func(k *kind) error {
		matched, err := k.selectObjects(o.Namespace, o.LabelSelector, o.FieldSelector)
		if err != nil {
			return err
		}
		for _, m := range matched {
			k.objects.remove(m)
		}
		return nil
	})
}

// write runs fn on obj's kind with s.mu held, after what every write
// checks first: a dry run writes nothing, as the fake client's does, and
// obj must be of a kind the store serves.
func (s *Store) write(obj runtime.Object, dryRun []string, fn func(k *kind) error) error {
	if slices.Contains(dryRun, metav1.DryRunAll) {
		return nil
	}
	k, err := s.kindOf(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(k)
}
