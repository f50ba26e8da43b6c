package yamlout

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The walker writes a Go value as YAML by reflection, straight through the
// emitter, without the JSON and the tree that Marshal once went through. It
// follows encoding/json's rules for what gwsim prints (exported fields,
// json tag names, omitempty and omitzero, promoted embedded structs,
// pointers, interfaces, slices, arrays, maps with string keys, strings,
// bools, integers and metav1.Time), so that the YAML is that of the
// value's JSON encoding. Any other value (a json.Marshaler or
// encoding.TextMarshaler, a float, a []byte, a struct with fields that
// encoding/json resolves by its own rules, a map with keys outside
// printable ASCII; see classify and planStruct) is encoded with
// encoding/json, parsed and written from the tree, as before. So is a
// string outside printable ASCII, one string at a time, so that its scalar
// is what the parser reads from its JSON encoding (invalid UTF-8, U+0085
// and control characters included).

// maxPointers is how many pointers and interfaces deep the walker follows
// before it hands the value to encoding/json, which detects cycles there.
const maxPointers = 1000

// walker writes one document. depth counts the containers entered, as the
// parser counts them, so that both fail at maxDepth.
type walker struct {
	e *emitter
	*types
	depth int
	ptrs  int
	// split is set while a Split's skeleton is encoded: long sequences
	// are cut into runs instead of written.
	split *splitter
}

// types is what the walker learns of each type it meets, kept from one
// document to the next.
type types struct {
	infos map[reflect.Type]*typeInfo
}

func newTypes() types {
	return types{infos: map[reflect.Type]*typeInfo{}}
}

// typeInfo is how the walker writes values of one type, found once. The
// element of a pointer, slice, array or map type and a struct's plan are
// found when first needed, so that a value's type is looked up in a map
// only below an interface.
type typeInfo struct {
	t     reflect.Type
	kind  reflect.Kind
	class class
	elem  *typeInfo
	plan  *structPlan
}

func (ts *types) info(t reflect.Type) *typeInfo {
	ti, ok := ts.infos[t]
	if !ok {
		ti = &typeInfo{t: t, kind: t.Kind(), class: classify(t)}
		ts.infos[t] = ti
	}
	return ti
}

// elemInfo is the typeInfo of ti's element type.
func (ts *types) elemInfo(ti *typeInfo) *typeInfo {
	if ti.elem == nil {
		ti.elem = ts.info(ti.t.Elem())
	}
	return ti.elem
}

// planOf is the plan of struct type ti.
func planOf(ti *typeInfo) *structPlan {
	if ti.plan == nil {
		ti.plan = planStruct(ti.t)
	}
	return ti.plan
}

// fieldInfo is the typeInfo of field f's type.
func (ts *types) fieldInfo(f *fieldPlan) *typeInfo {
	if f.info == nil {
		f.info = ts.info(f.typ)
	}
	return f.info
}

// classOf says how v, of type ti, is written: by the walker, or by
// encoding/json.
func classOf(v reflect.Value, ti *typeInfo) class {
	if ti.class == classJSONPtr && !v.CanAddr() {
		return classPlain
	}
	return ti.class
}

// root writes the document's value.
func (w *walker) root(x any) error {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		w.e.plainWord("null")
		return nil
	}
	return w.value(v, w.info(v.Type()), ctxRoot)
}

func (w *walker) value(v reflect.Value, ti *typeInfo, ctx context) error {
	if err := w.write(v, ti, ctx); err != nil {
		return err
	}
	w.e.flush(flushSize)
	return w.e.err
}

func (w *walker) write(v reflect.Value, ti *typeInfo, ctx context) error {
	e := w.e
	switch classOf(v, ti) {
	case classTime:
		w.time(v, ctx)
		return nil
	case classJSON, classJSONPtr:
		return w.viaJSON(v, ctx)
	}
	switch ti.kind {
	case reflect.String:
		return w.str(v.String(), ctx)
	case reflect.Bool:
		if v.Bool() {
			e.plainWord("true")
		} else {
			e.plainWord("false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.integer(v.Int(), false)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.integer(int64(v.Uint()), true)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.plainWord("null")
			return nil
		}
		if w.ptrs >= maxPointers {
			return w.viaJSON(v, ctx)
		}
		w.ptrs++
		defer func() { w.ptrs-- }()
		elem := v.Elem()
		if ti.kind == reflect.Pointer {
			return w.write(elem, w.elemInfo(ti), ctx)
		}
		return w.write(elem, w.info(elem.Type()), ctx)
	case reflect.Struct:
		return w.object(v, ti, ctx)
	case reflect.Map:
		if v.IsNil() {
			e.plainWord("null")
			return nil
		}
		return w.mapping(v, ti, ctx)
	case reflect.Slice:
		if v.IsNil() {
			e.plainWord("null")
			return nil
		}
		return w.array(v, ti, ctx)
	case reflect.Array:
		return w.array(v, ti, ctx)
	default:
		return w.viaJSON(v, ctx)
	}
	return nil
}

// time writes a metav1.Time as its MarshalJSON does: null when zero (or a
// nil pointer), else RFC 3339 in UTC.
func (w *walker) time(v reflect.Value, ctx context) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			w.e.plainWord("null")
			return
		}
		v = v.Elem()
	}
	tm := timeOf(v)
	if tm.IsZero() {
		w.e.plainWord("null")
		return
	}
	var buf [len(time.RFC3339) + 8]byte
	t := tm.UTC()
	b := t.AppendFormat(buf[:0], time.RFC3339)
	if y := t.Year(); 0 <= y && y <= 9999 {
		// yaml.v2 reads "2006-01-02T15:04:05Z" as a timestamp, so it
		// double-quotes it; it holds nothing to escape and no blank to
		// fold at.
		w.e.quotedWord(b)
		return
	}
	s := string(b)
	w.e.stringScalar(s, analyze(s), ctx)
}

// timeOf reads a metav1.Time without copying it into an interface when it
// can.
func timeOf(v reflect.Value) *metav1.Time {
	if v.CanAddr() {
		return v.Addr().Interface().(*metav1.Time)
	}
	tm := v.Interface().(metav1.Time)
	return &tm
}

// viaJSON encodes v with encoding/json, parses that as Marshal always did
// and writes the tree.
func (w *walker) viaJSON(v reflect.Value, ctx context) error {
	t, root, err := w.parseJSON(v)
	if err != nil {
		return err
	}
	saved := w.e.t
	w.e.t = t
	w.e.node(root, ctx)
	w.e.t = saved
	return nil
}

// parseJSON encodes v with encoding/json, addressable as it stands, and
// parses that at the walker's depth.
func (w *walker) parseJSON(v reflect.Value) (*tree, node, error) {
	var x any
	if v.CanAddr() {
		x = v.Addr().Interface()
	} else {
		x = v.Interface()
	}
	j, err := json.Marshal(x)
	if err != nil {
		return nil, node{}, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	j = escapeUnprintable(j)
	if len(j) >= math.MaxInt32 {
		return nil, node{}, errors.New("yamlout: a value encodes to 2 GiB of JSON or more")
	}
	t := &tree{src: string(j)}
	p := &parser{t: t, src: t.src, depth: w.depth}
	root, err := p.value()
	if err == nil && p.pos != len(p.src) {
		err = errSyntax
	}
	return t, root, err
}

// str writes a string value as the parser reads its JSON encoding.
func (w *walker) str(s string, ctx context) error {
	if isPlainWord(s) {
		w.e.plainWord(s)
		return nil
	}
	if !isPrintableASCII(s) {
		// Printable ASCII reads back as itself; anything else is read
		// from its JSON encoding.
		j, err := json.Marshal(s)
		if err != nil {
			return err
		}
		j = escapeUnprintable(j)
		t := &tree{}
		p := &parser{t: t, src: string(j)}
		n, _, err := p.str()
		if err != nil {
			return err
		}
		t.src = p.src
		s = t.text(n)
	}
	w.e.stringScalar(s, analyze(s), ctx)
	return nil
}

func (w *walker) enter() error {
	w.depth++
	if w.depth > maxDepth {
		return fmt.Errorf("yaml: exceeded max depth of %d", maxDepth)
	}
	return nil
}

// array writes a slice or array as emitter.node writes an array node.
func (w *walker) array(v reflect.Value, ti *typeInfo, ctx context) error {
	if err := w.enter(); err != nil {
		return err
	}
	n := v.Len()
	e := w.e
	if n == 0 {
		e.writeIndicator("[", true, true, false)
		e.writeIndicator("]", false, false, false)
		w.depth--
		return nil
	}
	saved := e.indent
	e.increaseIndent(false, ctx == ctxMapping && !e.indention)
	if w.split != nil && n > w.split.run {
		w.split.cut(e, v, e.indent, w.depth, w.ptrs)
		e.indent = saved
		w.depth--
		return nil
	}
	elem := w.elemInfo(ti)
	for i := range n {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		if err := w.value(v.Index(i), elem, ctxSequence); err != nil {
			return err
		}
	}
	e.indent = saved
	w.depth--
	return nil
}

// object writes a struct as emitter.node writes an object node.
func (w *walker) object(v reflect.Value, ti *typeInfo, ctx context) error {
	plan := planOf(ti)
	if plan.byJSON {
		return w.viaJSON(v, ctx)
	}
	if err := w.enter(); err != nil {
		return err
	}
	e := w.e
	saved := e.indent
	opened := false
	for i := range plan.fields {
		f := &plan.fields[i]
		fv := f.of(v)
		if f.omitted(fv) {
			continue
		}
		if !opened {
			// Nothing is written before the first field that is not
			// left out, so that an object of none is written "{}".
			e.increaseIndent(false, false)
			opened = true
		}
		e.simpleKey(f.name, f.key, f.plainKey)
		if err := w.value(fv, w.fieldInfo(f), ctxMapping); err != nil {
			return err
		}
	}
	if !opened {
		e.writeIndicator("{", true, true, false)
		e.writeIndicator("}", false, false, false)
	}
	e.indent = saved
	w.depth--
	return nil
}

// mapping writes a map with string keys as emitter.node writes an object
// node. Keys outside printable ASCII or too long for a simple key are left
// to encoding/json and the parser: two such keys can read back as one
// (invalid UTF-8 becomes U+FFFD), and a long one is an error.
func (w *walker) mapping(v reflect.Value, ti *typeInfo, ctx context) error {
	if !plainKeys(v) {
		return w.viaJSON(v, ctx)
	}
	keys := v.MapKeys()
	if err := w.enter(); err != nil {
		return err
	}
	e := w.e
	if len(keys) == 0 {
		e.writeIndicator("{", true, true, false)
		e.writeIndicator("}", false, false, false)
		w.depth--
		return nil
	}
	slices.SortFunc(keys, func(a, b reflect.Value) int { return compareKeys(a.String(), b.String()) })
	saved := e.indent
	e.increaseIndent(false, false)
	elem := w.elemInfo(ti)
	for _, k := range keys {
		s := k.String()
		e.mappingKey(s, analyze(s))
		if err := w.value(v.MapIndex(k), elem, ctxMapping); err != nil {
			return err
		}
	}
	e.indent = saved
	w.depth--
	return nil
}

// plainKeys reports whether every key of map v is printable ASCII and
// short enough for a simple key, which the walker writes itself.
func plainKeys(v reflect.Value) bool {
	for it := v.MapRange(); it.Next(); {
		if s := it.Key().String(); !isPrintableASCII(s) || jsonWidth(s) > maxSimpleKey {
			return false
		}
	}
	return true
}

// empty reports whether v encodes to nothing but nulls, empty objects and
// empty arrays.
func (w *walker) empty(v reflect.Value) (bool, error) {
	if !v.IsValid() {
		return true, nil
	}
	ti := w.info(v.Type())
	c := classOf(v, ti)
	if c == classTime {
		if v.Kind() == reflect.Pointer {
			return v.IsNil() || timeOf(v.Elem()).IsZero(), nil
		}
		return timeOf(v).IsZero(), nil
	}
	if c != classPlain || ti.kind == reflect.Struct && planOf(ti).byJSON || ti.kind == reflect.Map && !plainKeys(v) ||
		w.ptrs >= maxPointers {
		tr, root, err := w.parseJSON(v)
		if err != nil {
			return false, err
		}
		return tr.empty(root), nil
	}
	switch ti.kind {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return true, nil
		}
		w.ptrs++
		defer func() { w.ptrs-- }()
		return w.empty(v.Elem())
	case reflect.Slice, reflect.Array:
		return v.Len() == 0, nil
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if empty, err := w.empty(it.Value()); !empty || err != nil {
				return false, err
			}
		}
		return true, nil
	case reflect.Struct:
		for i := range planOf(ti).fields {
			f := &ti.plan.fields[i]
			fv := f.of(v)
			if f.omitted(fv) {
				continue
			}
			if empty, err := w.empty(fv); !empty || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil
}
