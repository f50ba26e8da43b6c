package admission

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

// Walk runs the API server's create path for the schema (prune
// unknown fields, drop non-nullable nulls without defaults, apply
// defaults, then the OpenAPI schema and list-type checks) in one pass over
// obj, for the common case where the object is valid.
//
// It mutates obj as the library would and returns the pruned paths (sorted,
// as the library's tracking returns them) and ok. When ok is false the
// object is invalid or uses something the walk does not reproduce, and obj
// has been put back exactly as it was (every change is logged and undone),
// so that the library can admit the original.
//
// Soundness: ok is true only if every check the library makes passes on
// the pruned and defaulted object; the pruning, null pruning and
// defaulting follow the library's algorithms node by node (fastschema.go
// marks what they do not cover). TestFastAdmitMatchesLibrary checks this
// on every manifest gwsim has and on mutants of each.
//
// declined is the path where the walk gave up ("" for the root), for tests
// and for profiling what the walk misses.
func Walk(root *WalkNode, obj map[string]any) (pruned []string, declined string, ok bool) {
	w := walkStates.Get().(*walkState)
	defer w.release()
	if !w.object(obj, root, modeRoot) {
		w.undo()
		return nil, w.declined, false
	}
	sort.Strings(w.pruned)
	return w.pruned, "", true
}

// walkStates hold the walk's scratch space (its path and undo log) for
// the next walk: the undo log of the defaults a walk inserts was about 5%
// of what loading the 10k-route set allocated.
var walkStates = sync.Pool{New: func() any { return new(walkState) }}

// release empties w, keeping the room of its path and log, and pools it.
// Their references into the walked object are cleared, so that the pool
// keeps no object alive.
func (w *walkState) release() {
	clear(w.log)
	clear(w.path[:cap(w.path)])
	*w = walkState{path: w.path[:0], log: w.log[:0]}
	walkStates.Put(w)
}

// walkMode says how the library's steps treat a value: the root of a
// resource (its apiVersion, kind and metadata are never pruned), a value
// under such a field (pruning does not descend there), a default the walk
// inserted (pruning and null pruning ran before defaulting, so they never
// see it), or an ordinary value.
type walkMode uint8

const (
	modeNormal walkMode = iota
	modeRoot
	modeNoPrune
	modeInDefault
)

type walkState struct {
	// path is the current field path, for recording pruned fields.
	path   []pathStep
	pruned []string
	log    []change
	// declined is where the walk first gave up, for tests and profiles.
	declined string
}

// pathStep is a key, or an index when index >= 0.
type pathStep struct {
	key   string
	index int
}

// change is one mutation, to undo: a map key set or deleted (old, had),
// or a list item replaced.
type change struct {
	m    map[string]any
	key  string
	list []any
	idx  int
	old  any
	had  bool
}

func (w *walkState) undo() {
	for i := len(w.log) - 1; i >= 0; i-- {
		c := w.log[i]
		switch {
		case c.list != nil:
			c.list[c.idx] = c.old
		case c.had:
			c.m[c.key] = c.old
		default:
			delete(c.m, c.key)
		}
	}
	w.log = nil
}

func (w *walkState) setKey(m map[string]any, k string, v any) {
	old, had := m[k]
	w.log = append(w.log, change{m: m, key: k, old: old, had: had})
	m[k] = v
}

func (w *walkState) deleteKey(m map[string]any, k string) {
	w.log = append(w.log, change{m: m, key: k, old: m[k], had: true})
	delete(m, k)
}

var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// value checks v against n and applies what the library's steps do below
// it; v is the value's final place in its parent (already defaulted if it
// was a null with a default).
func (w *walkState) value(v any, n *WalkNode, mode walkMode) bool {
	if w.valueOK(v, n, mode) {
		return true
	}
	if w.declined == "" {
		w.declined = w.pathString("")
	}
	return false
}

func (w *walkState) valueOK(v any, n *WalkNode, mode walkMode) bool {
	if n.unsupported {
		return false
	}
	if v == nil {
		// The validator accepts a null only where nullable; an enum
		// rejects it even then.
		return n.nullable && n.enum == nil && n.intEnum == nil && mode != modeInDefault
	}
	switch n.kind {
	case kindObject:
		m, ok := v.(map[string]any)
		return ok && w.object(m, n, mode)
	case kindArray:
		l, ok := v.([]any)
		return ok && w.array(l, n, mode)
	case kindString:
		s, ok := v.(string)
		return ok && n.stringOK(s)
	case kindInteger:
		i, ok := v.(int64)
		return ok && n.integerOK(i)
	case kindBoolean:
		_, ok := v.(bool)
		return ok
	}
	return false
}

// object walks a map: pruning, null pruning and defaulting of its keys,
// then its own bounds and required fields on the result.
func (w *walkState) object(m map[string]any, n *WalkNode, mode walkMode) bool {
	if n.unsupported || n.kind != kindObject {
		return false
	}
	childMode := mode
	if mode == modeRoot {
		childMode = modeNormal
	}
	for k, v := range m {
		cm := childMode
		if mode == modeRoot && metaFields[k] {
			cm = modeNoPrune
		}
		child := n.props[k]
		if child == nil {
			child = n.additional
		}
		if child == nil {
			switch cm {
			case modeNoPrune:
				// Not pruned, and no other step has a schema for it.
				continue
			case modeInDefault:
				return false
			}
			w.recordPruned(k)
			w.deleteKey(m, k)
			continue
		}
		if v == nil && !child.nullable {
			if cm == modeInDefault {
				return false
			}
			if child.dflt == nil {
				w.deleteKey(m, k) // PruneNonNullableNullsWithoutDefaults
				continue
			}
			v = CopyJSONValue(child.dflt)
			w.setKey(m, k, v)
			cm = modeInDefault
		}
		w.push(k)
		ok := w.value(v, child, cm)
		w.pop()
		if !ok {
			return false
		}
	}
	for _, d := range n.defaulted {
		if _, found := m[d.name]; found {
			continue
		}
		v := CopyJSONValue(d.node.dflt)
		w.setKey(m, d.name, v)
		w.push(d.name)
		ok := w.value(v, d.node, modeInDefault)
		w.pop()
		if !ok {
			return false
		}
	}
	count := int64(len(m))
	if (n.minProps >= 0 && count < n.minProps) || (n.maxProps >= 0 && count > n.maxProps) {
		return false
	}
	for _, r := range n.required {
		if _, ok := m[r]; !ok {
			return false
		}
	}
	return true
}

// array walks a list: items (a non-nullable null item takes the items'
// default, as defaulting does), then bounds and list-type uniqueness.
func (w *walkState) array(l []any, n *WalkNode, mode walkMode) bool {
	if mode == modeRoot {
		mode = modeNormal
	}
	count := int64(len(l))
	if (n.minItems >= 0 && count < n.minItems) || (n.maxItems >= 0 && count > n.maxItems) {
		return false
	}
	for i, v := range l {
		m := mode
		if v == nil && !n.items.nullable && n.items.dflt != nil && mode != modeInDefault {
			v = CopyJSONValue(n.items.dflt)
			w.log = append(w.log, change{list: l, idx: i, old: nil})
			l[i] = v
			m = modeInDefault
		}
		w.pushIndex(i)
		ok := w.value(v, n.items, m)
		w.pop()
		if !ok {
			return false
		}
	}
	switch n.listType {
	case listSet:
		return uniqueScalars(l)
	case listMap:
		return uniqueMapKeys(l, n.mapKeys)
	}
	return true
}

func (n *WalkNode) stringOK(s string) bool {
	if n.minLen >= 0 || n.maxLen >= 0 {
		// kube-openapi counts runes.
		runes := int64(utf8.RuneCountInString(s))
		if (n.minLen >= 0 && runes < n.minLen) || (n.maxLen >= 0 && runes > n.maxLen) {
			return false
		}
	}
	if n.match != nil {
		if !n.match(s) {
			return false
		}
	} else if n.pattern != nil && !n.pattern.MatchString(s) {
		return false
	}
	if n.format != "" && !strfmt.Default.Validates(n.format, s) {
		return false
	}
	if n.enum != nil {
		for _, e := range n.enum {
			if e == s {
				return true
			}
		}
		return false
	}
	return true
}

func (n *WalkNode) integerOK(i int64) bool {
	if n.int32 && (i < -1<<31 || i > 1<<31-1) {
		return false
	}
	if (n.hasMin && i < n.min) || (n.hasMax && i > n.max) {
		return false
	}
	return n.intEnum == nil || slices.Contains(n.intEnum, i)
}

// uniqueScalars is the list-type set check for lists of scalars (the
// library compares scalars as Go values); a list holding objects or lists
// is left to the library.
func uniqueScalars(l []any) bool {
	for i, a := range l {
		switch a.(type) {
		case string, int64, bool, float64:
		default:
			return false
		}
		for _, b := range l[:i] {
			if a == b {
				return false
			}
		}
	}
	return true
}

// uniqueMapKeys is the list-type map check: no two items with the same
// key fields (a field absent in both counts as equal). Key values other
// than strings, integers and booleans are left to the library, which
// compares them through JSON.
func uniqueMapKeys(l []any, keys []string) bool {
	for i, a := range l {
		am, ok := a.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range keys {
			switch am[k].(type) {
			case nil, string, int64, bool:
			default:
				return false
			}
		}
		for _, b := range l[:i] {
			if sameKeys(am, b.(map[string]any), keys) {
				return false
			}
		}
	}
	return true
}

func sameKeys(a, b map[string]any, keys []string) bool {
	for _, k := range keys {
		av, aok := a[k]
		bv, bok := b[k]
		if aok != bok || av != bv {
			return false
		}
	}
	return true
}

func (w *walkState) push(key string) { w.path = append(w.path, pathStep{key: key, index: -1}) }

func (w *walkState) pushIndex(i int) { w.path = append(w.path, pathStep{index: i}) }

func (w *walkState) pop() { w.path = w.path[:len(w.path)-1] }

// recordPruned records the path of key under the current path.
func (w *walkState) recordPruned(key string) {
	w.pruned = append(w.pruned, w.pathString(key))
}

// pathString is the current path, then key if not empty, as the library's
// unknown-field tracking writes it: keys joined by dots, indexes in
// brackets, nothing escaped.
func (w *walkState) pathString(key string) string {
	steps := w.path
	if key != "" {
		steps = append(steps, pathStep{key: key, index: -1})
	}
	var b strings.Builder
	for i, s := range steps {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case i > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// CopyJSONValue copies decoded JSON: a default value, as defaulting does
// for each use, and the tests' objects before they are changed.
func CopyJSONValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = CopyJSONValue(e)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = CopyJSONValue(e)
		}
		return c
	}
	return v
}
