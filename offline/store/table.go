package store

import (
	"cmp"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// table holds the objects of one kind and its indexes. It replaces
// client-go's cache.Indexer, which kept a set (a Go map) per index value,
// twice per value (under the namespace and under every namespace), built
// a "namespace/name" string per object, and re-indexed every index of an
// object on every write. Here:
//
//   - each object has one slot (entry), found by its key without building
//     a string; the indexes hold slots, so a write that changes no index
//     value replaces the object in its slot and touches no index;
//   - each index keeps, per value, a slice of slots sorted by namespace and
//     name, which is what List returns: no sort per read, and a field
//     selector within one namespace is a binary search in the same slice;
//   - a write extracts the index values of the old and the new object and
//     moves the slot only between the values that differ; a status write
//     skips the indexes declared not to read status (Builder.WithSpecIndex).
//
// Writers are serialised by Store.mu; mu guards the slots and the slices
// against concurrent readers, which copy what they need out under the read
// lock. Stored objects are never modified in place, so a reader may keep
// using them after the lock is released.
type table struct {
	mu    sync.RWMutex
	byKey map[types.NamespacedName]*entry
	// all holds every slot, byNamespace those of each namespace; both
	// sorted by namespace and name.
	all         []*entry
	byNamespace map[string][]*entry
	indexes     []*fieldIndex
	// building means slots are appended unsorted, to be sorted once by
	// finishBuild: inserting each of 100,000 initial objects in order
	// would cost a quadratic amount of copying. A building table is only
	// added to (Builder.Build) and not read.
	building bool
}

// entry is one stored object's slot.
type entry struct {
	key types.NamespacedName
	obj client.Object // replaced under table.mu, never modified
}

// fieldIndex is one registered field index.
type fieldIndex struct {
	field   string
	extract client.IndexerFunc
	// specOnly means extract reads no status, so that a status write
	// cannot change the object's values.
	specOnly bool
	// byValue holds, per value, the slots of the objects extract returns
	// it for, sorted by namespace and name.
	byValue map[string][]*entry
}

// newTable returns an empty table, in the building state, with the given
// indexes (whose byValue maps it fills).
func newTable(indexes []*fieldIndex) *table {
	return &table{byKey: map[types.NamespacedName]*entry{}, byNamespace: map[string][]*entry{}, indexes: indexes, building: true}
}

// reserve makes room for n objects in a building table.
func (t *table) reserve(n int) {
	t.byKey = make(map[types.NamespacedName]*entry, n)
	t.all = make([]*entry, 0, n)
}

// index returns the index over field, or nil.
func (t *table) index(field string) *fieldIndex {
	for _, f := range t.indexes {
		if f.field == field {
			return f
		}
	}
	return nil
}

// compareEntries orders slots by namespace, then name.
func compareEntries(a, b *entry) int {
	return cmp.Or(cmp.Compare(a.key.Namespace, b.key.Namespace), cmp.Compare(a.key.Name, b.key.Name))
}

// insertSorted adds e to s, keeping s sorted unless the table is building.
func (t *table) insertSorted(s []*entry, e *entry) []*entry {
	if t.building {
		return append(s, e)
	}
	i, _ := slices.BinarySearchFunc(s, e, compareEntries)
	return slices.Insert(s, i, e)
}

// removeSorted removes e from the sorted s.
func removeSorted(s []*entry, e *entry) []*entry {
	i, found := slices.BinarySearchFunc(s, e, compareEntries)
	if !found {
		return s
	}
	// A slice emptied here is dropped by the caller; one shrunk keeps its
	// array, as the next insert into it probably reuses it.
	return slices.Delete(s, i, i+1)
}

// finishBuild sorts what building appended and ends the building state.
func (t *table) finishBuild() {
	t.mu.Lock()
	defer t.mu.Unlock()
	slices.SortFunc(t.all, compareEntries)
	for _, s := range t.byNamespace {
		slices.SortFunc(s, compareEntries)
	}
	for _, f := range t.indexes {
		for _, s := range f.byValue {
			slices.SortFunc(s, compareEntries)
		}
	}
	t.building = false
}

// get returns the object stored under key.
func (t *table) get(key types.NamespacedName) (client.Object, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	e, ok := t.byKey[key]
	if !ok {
		return nil, false
	}
	return e.obj, true
}

// add stores obj, which no object of its key is stored under.
func (t *table) add(obj client.Object) {
	vs := make([][]string, len(t.indexes))
	for i, f := range t.indexes {
		vs[i] = values(f.extract, obj)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e := &entry{key: types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, obj: obj}
	t.byKey[e.key] = e
	t.all = t.insertSorted(t.all, e)
	t.byNamespace[e.key.Namespace] = t.insertSorted(t.byNamespace[e.key.Namespace], e)
	for i, f := range t.indexes {
		for _, v := range vs[i] {
			f.byValue[v] = t.insertSorted(f.byValue[v], e)
		}
	}
}

// replace stores next in old's slot. statusOnly means next differs from
// old in status alone, so that the indexes over spec keep their values.
func (t *table) replace(old, next client.Object, statusOnly bool) {
	type move struct {
		f           *fieldIndex
		added, gone []string
	}
	var moves []move
	for _, f := range t.indexes {
		if statusOnly && f.specOnly {
			continue
		}
		added, gone := diffValues(values(f.extract, old), values(f.extract, next))
		if len(added) > 0 || len(gone) > 0 {
			moves = append(moves, move{f, added, gone})
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byKey[types.NamespacedName{Namespace: old.GetNamespace(), Name: old.GetName()}]
	e.obj = next
	for _, m := range moves {
		for _, v := range m.gone {
			m.f.remove(v, e)
		}
		for _, v := range m.added {
			m.f.byValue[v] = t.insertSorted(m.f.byValue[v], e)
		}
	}
}

// remove deletes the object stored under obj's key.
func (t *table) remove(obj client.Object) {
	key := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byKey[key]
	if !ok {
		return
	}
	delete(t.byKey, key)
	t.all = removeSorted(t.all, e)
	if s := removeSorted(t.byNamespace[key.Namespace], e); len(s) > 0 {
		t.byNamespace[key.Namespace] = s
	} else {
		delete(t.byNamespace, key.Namespace)
	}
	for _, f := range t.indexes {
		for _, v := range values(f.extract, e.obj) {
			f.remove(v, e)
		}
	}
}

// remove drops e from value's slots. t.mu must be held.
func (f *fieldIndex) remove(value string, e *entry) {
	if s := removeSorted(f.byValue[value], e); len(s) > 0 {
		f.byValue[value] = s
	} else {
		delete(f.byValue, value)
	}
}

// values returns extract's values for obj, sorted and without duplicates
// (an object is held once per value). The slice extract returned is not
// modified: an index function may hand out one it keeps.
func values(extract client.IndexerFunc, obj client.Object) []string {
	vs := extract(obj)
	for i := 1; i < len(vs); i++ {
		if vs[i-1] >= vs[i] {
			vs = slices.Clone(vs)
			slices.Sort(vs)
			return slices.Compact(vs)
		}
	}
	return vs
}

// diffValues returns the values of the sorted, duplicate-free next that
// prev lacks, and those of prev that next lacks.
func diffValues(prev, next []string) (added, gone []string) {
	i, j := 0, 0
	for i < len(prev) || j < len(next) {
		switch {
		case j == len(next) || (i < len(prev) && prev[i] < next[j]):
			gone = append(gone, prev[i])
			i++
		case i == len(prev) || next[j] < prev[i]:
			added = append(added, next[j])
			j++
		default:
			i++
			j++
		}
	}
	return added, gone
}

// list returns every stored object, sorted by namespace and name.
func (t *table) list() []client.Object {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return objectsOf(t.all, "")
}

// inNamespace returns the objects of namespace ns, sorted by name.
func (t *table) inNamespace(ns string) []client.Object {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return objectsOf(t.byNamespace[ns], "")
}

// byValue returns the objects whose values for f hold value, sorted by
// namespace and name; only those of namespace ns when ns is not empty.
func (t *table) byValue(f *fieldIndex, value, ns string) []client.Object {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return objectsOf(f.byValue[value], ns)
}

// objectsOf copies out the objects of the sorted slots s; only those of
// namespace ns when ns is not empty. t.mu must be held.
func objectsOf(s []*entry, ns string) []client.Object {
	if ns != "" {
		lo, _ := slices.BinarySearchFunc(s, ns, func(e *entry, ns string) int { return cmp.Compare(e.key.Namespace, ns) })
		hi := lo
		for hi < len(s) && s[hi].key.Namespace == ns {
			hi++
		}
		s = s[lo:hi]
	}
	out := make([]client.Object, len(s))
	for i, e := range s {
		out[i] = e.obj
	}
	return out
}
