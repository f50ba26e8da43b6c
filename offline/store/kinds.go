package store

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// kind is everything the store knows about one GroupVersionKind: where its
// objects live and how writes to it behave. It is fixed at Build; only the
// table's contents change afterwards.
type kind struct {
	gvk      schema.GroupVersionKind
	resource schema.GroupResource
	goType   reflect.Type // the struct type, not the pointer
	// objects holds the stored objects and the kind's field indexes.
	objects    *table
	namespaced bool
	// hasStatus means the kind has a status subresource: its Go type has a
	// top-level Status field, found at statusField.
	hasStatus   bool
	statusField []int
	// specFields are the top-level fields whose change bumps generation.
	specFields []int
	// unconditionalUpdate means an Update without a resourceVersion
	// overwrites instead of conflicting.
	unconditionalUpdate bool
}

// objectKinds returns every kind in the scheme that is a storable object:
// a versioned type implementing client.Object that has a matching List kind.
// The last condition filters out options, events and other non-resources
// that every group version registers.
func objectKinds(s *runtime.Scheme) []schema.GroupVersionKind {
	var kinds []schema.GroupVersionKind
	for gvk := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		if !s.Recognizes(gvk.GroupVersion().WithKind(gvk.Kind + "List")) {
			continue
		}
		obj, err := s.New(gvk)
		if err != nil {
			continue
		}
		if _, ok := obj.(client.Object); !ok || meta.IsListType(obj) {
			continue
		}
		kinds = append(kinds, gvk)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].String() < kinds[j].String() })
	return kinds
}

// newKind builds the kind entry for gvk with its field indexes registered.
func newKind(s *runtime.Scheme, gvk schema.GroupVersionKind, indexes []*fieldIndex) (*kind, error) {
	obj, err := s.New(gvk)
	if err != nil {
		return nil, err
	}
	goType := reflect.TypeOf(obj)
	if goType.Kind() != reflect.Pointer || goType.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("kind %s: type %T is not a pointer to a struct", gvk, obj)
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	status, hasStatus := goType.Elem().FieldByName("Status")
	return &kind{
		gvk:                 gvk,
		resource:            plural.GroupResource(),
		goType:              goType.Elem(),
		objects:             newTable(indexes),
		namespaced:          !clusterScoped(gvk.GroupKind()),
		hasStatus:           hasStatus,
		statusField:         status.Index,
		specFields:          specFieldsOf(goType.Elem()),
		unconditionalUpdate: gvk.Group == "",
	}, nil
}

// clusterScoped lists the cluster-scoped kinds of the groups gwsim's scheme
// holds (core/v1 and the Gateway API CRDs' "scope: Cluster"), and of
// apiextensions/v1, which the conformance harness adds to its scheme.
func clusterScoped(gk schema.GroupKind) bool {
	switch gk {
	case schema.GroupKind{Kind: "Namespace"},
		schema.GroupKind{Kind: "Node"},
		schema.GroupKind{Kind: "PersistentVolume"},
		schema.GroupKind{Kind: "ComponentStatus"},
		schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"},
		schema.GroupKind{Group: "gateway.networking.k8s.io", Kind: "GatewayClass"},
		schema.GroupKind{Group: "gateway.networking.x-k8s.io", Kind: "XMesh"}:
		return true
	}
	return false
}

// newRESTMapper maps every stored kind with its scope. Group versions are
// ordered by Kubernetes version priority (v1 before v1beta1 before v1alpha2)
// so that a mapping requested without a version picks the most stable one.
func newRESTMapper(kinds map[schema.GroupVersionKind]*kind) meta.RESTMapper {
	seen := map[schema.GroupVersion]bool{}
	var gvs []schema.GroupVersion
	for gvk := range kinds {
		if gv := gvk.GroupVersion(); !seen[gv] {
			seen[gv] = true
			gvs = append(gvs, gv)
		}
	}
	sort.Slice(gvs, func(i, j int) bool {
		if gvs[i].Group != gvs[j].Group {
			return gvs[i].Group < gvs[j].Group
		}
		return version.CompareKubeAwareVersionStrings(gvs[i].Version, gvs[j].Version) > 0
	})
	mapper := meta.NewDefaultRESTMapper(gvs)
	for gvk, k := range kinds {
		scope := meta.RESTScopeRoot
		if k.namespaced {
			scope = meta.RESTScopeNamespace
		}
		mapper.Add(gvk, scope)
	}
	return mapper
}

// listKind is a kind as its typed list holds it.
type listKind struct {
	kind *kind
	// items is the index of the list's Items field, a slice of the
	// kind's struct.
	items []int
}

// indexTypes fills byType and byListType, so that a read or write finds
// its kind with one map lookup instead of asking the scheme (which
// allocates) on every call. Only Go types that the scheme maps to exactly
// this kind are entered: for any other, kindOf and kindOfList ask the
// scheme as before and give its answer or its error.
func (s *Store) indexTypes() {
	s.byType = map[reflect.Type]*kind{}
	s.byListType = map[reflect.Type]listKind{}
	for gvk, k := range s.kinds {
		obj := reflect.New(k.goType).Interface().(runtime.Object)
		if got, err := apiutil.GVKForObject(obj, s.scheme); err == nil && got == gvk {
			s.byType[reflect.TypeOf(obj)] = k
		}
		listGVK := gvk.GroupVersion().WithKind(gvk.Kind + "List")
		list, err := s.scheme.New(listGVK)
		if err != nil {
			continue
		}
		if got, err := apiutil.GVKForObject(list, s.scheme); err != nil || got != listGVK {
			continue
		}
		f, ok := reflect.TypeOf(list).Elem().FieldByName("Items")
		if ok && f.Type == reflect.SliceOf(k.goType) {
			s.byListType[reflect.TypeOf(list)] = listKind{kind: k, items: f.Index}
		}
	}
}

// fill sets the Items of list (the list struct, zeroed) to copies of
// objs, as meta.SetList would: the top level only when shallow, else deep
// copies. Stored objects have no TypeMeta, so neither have the copies.
func (lk listKind) fill(list reflect.Value, objs []client.Object, shallow bool) {
	items := reflect.MakeSlice(reflect.SliceOf(lk.kind.goType), len(objs), len(objs))
	for i, o := range objs {
		if !shallow {
			o = o.DeepCopyObject().(client.Object)
		}
		items.Index(i).Set(reflect.ValueOf(o).Elem())
	}
	list.FieldByIndex(lk.items).Set(items)
}
