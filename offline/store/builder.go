package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/gwsim/gwsim/internal/crash"
)

// Builder collects a store's scheme, initial objects and field indexes, in
// the fluent style of controller-runtime's fake.ClientBuilder. Problems are
// collected and returned together by Build rather than panicking.
type Builder struct {
	scheme  *runtime.Scheme
	objects []initialObject
	indexes []indexSpec
}

// initialObject is an object given to WithObjects (shared false) or
// WithSharedObjects (shared true).
type initialObject struct {
	obj    client.Object
	shared bool
}

// indexSpec is one WithIndex or WithSpecIndex call, resolved at Build.
type indexSpec struct {
	obj      runtime.Object
	field    string
	fn       client.IndexerFunc
	specOnly bool
}

// NewBuilder starts a store over scheme (normally offline/scheme.New()).
func NewBuilder(scheme *runtime.Scheme) *Builder {
	return &Builder{scheme: scheme}
}

// WithObjects adds initial objects. They are deep-copied at Build; the
// caller's objects are never modified.
func (b *Builder) WithObjects(objs ...client.Object) *Builder {
	for _, o := range objs {
		b.objects = append(b.objects, initialObject{obj: o})
	}
	return b
}

// WithSharedObjects adds initial objects without deep-copying them: the
// store keeps a copy of each object's top level (so that it can set
// resourceVersion and the like) and shares everything below it with the
// caller's object. The store never modifies what it holds in place, so
// this is safe as long as the caller does not modify these objects, or
// anything they point to, while the store is in use. It saves a deep copy
// of every object of a large input.
func (b *Builder) WithSharedObjects(objs ...client.Object) *Builder {
	for _, o := range objs {
		b.objects = append(b.objects, initialObject{obj: o, shared: true})
	}
	return b
}

// WithIndex registers an index named field over objects of obj's kind, as
// fake.ClientBuilder.WithIndex and cache.IndexField do. List answers
// client.MatchingFields{field: v} with the objects whose extractValue result
// contains v. extractValue must not modify the object it is given.
func (b *Builder) WithIndex(obj runtime.Object, field string, extractValue client.IndexerFunc) *Builder {
	b.indexes = append(b.indexes, indexSpec{obj: obj, field: field, fn: extractValue})
	return b
}

// WithSpecIndex is WithIndex for an index whose extractValue never reads
// the object's status. A status write changes nothing but status, so it
// cannot change such an index's values, and the store does not extract
// them again: most writes of a reconcile are status writes to objects
// indexed by their spec (routes by parent and backend). An extractValue
// that does read status must be registered with WithIndex, or List would
// answer from values a status write left stale.
func (b *Builder) WithSpecIndex(obj runtime.Object, field string, extractValue client.IndexerFunc) *Builder {
	b.indexes = append(b.indexes, indexSpec{obj: obj, field: field, fn: extractValue, specOnly: true})
	return b
}

// Build returns the store, or every problem found with the builder's input.
func (b *Builder) Build() (*Store, error) {
	if b.scheme == nil {
		return nil, errors.New("offline store: no scheme")
	}
	fields, errs := b.indexesByKind()
	s := &Store{scheme: b.scheme, kinds: map[schema.GroupVersionKind]*kind{}}
	for _, gvk := range objectKinds(b.scheme) {
		k, err := newKind(b.scheme, gvk, fields[gvk])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.kinds[gvk] = k
		delete(fields, gvk)
	}
	for _, gvk := range slices.SortedFunc(maps.Keys(fields), func(a, b schema.GroupVersionKind) int {
		return strings.Compare(a.String(), b.String())
	}) {
		errs = append(errs, fmt.Errorf("offline store: index on %s: kind is not stored", gvk))
	}
	s.mapper = newRESTMapper(s.kinds)
	s.indexTypes()
	errs = append(errs, s.addInitial(b.objects)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// parallelBuildMin is the number of initial objects from which Build adds
// each kind's objects on a goroutine of its own; below it the goroutines
// cost more than they save.
const parallelBuildMin = 1024

// addInitial stores the builder's objects and returns the problems found,
// in input order. Copying and indexing an object touches only its kind's
// table, so each kind's objects are added on a goroutine of their own (at
// 100,000 routes this is most of Build). What depends on the order of the
// whole input is decided afterwards, in input order, so that the result
// is the same as adding the objects one by one: which object of a
// duplicated key is kept (the first, in each kind's input order), the
// resourceVersion each stored object is numbered with, the store's latest
// creationTimestamp and the order of the errors.
func (s *Store) addInitial(objs []initialObject) []error {
	errs := make([]error, len(objs))
	byKind := map[*kind][]int{}
	for i, o := range objs {
		k, err := s.kindOf(o.obj)
		if err != nil {
			errs[i] = err
			continue
		}
		if o.obj.GetName() == "" {
			errs[i] = fmt.Errorf("offline store: %s in namespace %q has no name", k.gvk.Kind, o.obj.GetNamespace())
			continue
		}
		byKind[k] = append(byKind[k], i)
	}
	stored := make([]client.Object, len(objs))
	addKind := func(k *kind, indexes []int) {
		k.objects.reserve(len(indexes))
		for _, i := range indexes {
			stored[i], errs[i] = k.addInitial(objs[i])
		}
		k.objects.finishBuild()
	}
	if len(objs) < parallelBuildMin {
		for k, indexes := range byKind {
			addKind(k, indexes)
		}
	} else {
		var wg sync.WaitGroup
		var first crash.First
		for k, indexes := range byKind {
			wg.Go(func() { first.Catch(func() { addKind(k, indexes) }) })
		}
		wg.Wait()
		first.Raise()
	}
	for _, k := range s.kinds {
		if _, added := byKind[k]; !added {
			k.objects.finishBuild()
		}
	}
	for _, obj := range stored {
		if obj == nil {
			continue
		}
		// The object is in its table already, but nothing reads a table
		// before Build returns.
		if obj.GetResourceVersion() == "" {
			obj.SetResourceVersion(s.nextResourceVersion())
		}
		s.noteCreated(obj)
	}
	return slices.DeleteFunc(errs, func(err error) bool { return err == nil })
}

// indexesByKind resolves the WithIndex and WithSpecIndex calls into the
// indexes of each kind, reporting unknown kinds and duplicate fields.
func (b *Builder) indexesByKind() (map[schema.GroupVersionKind][]*fieldIndex, []error) {
	var errs []error
	byKind := map[schema.GroupVersionKind][]*fieldIndex{}
	for _, spec := range b.indexes {
		gvk, err := apiutil.GVKForObject(spec.obj, b.scheme)
		if err != nil {
			errs = append(errs, fmt.Errorf("offline store: index %q: %w", spec.field, err))
			continue
		}
		if spec.fn == nil {
			errs = append(errs, fmt.Errorf("offline store: index %q on %s: no index function", spec.field, gvk))
			continue
		}
		if slices.ContainsFunc(byKind[gvk], func(f *fieldIndex) bool { return f.field == spec.field }) {
			errs = append(errs, fmt.Errorf("offline store: indexer conflict: field %s for GroupVersionKind %v is already indexed", spec.field, gvk))
			continue
		}
		byKind[gvk] = append(byKind[gvk], &fieldIndex{field: spec.field, extract: spec.fn, specOnly: spec.specOnly, byValue: map[string][]*entry{}})
	}
	return byKind, errs
}
