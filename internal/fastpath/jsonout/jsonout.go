// Package jsonout writes a value as indented JSON in parts that encode
// independently of each other, so that a long document encodes on every
// core and streams out in order instead of being built whole in memory
// (json.MarshalIndent of the 10k-route translate document held 94 MB of
// output and its tree at once).
//
// The bytes are exactly those of encoding/json.MarshalIndent(v, "", "  "),
// because every value is still encoded by encoding/json: Split walks only
// the outer structure of the value (structs, pointers and lists that can
// hold a long list) and writes it the way json.Indent lays it out; any
// value it does not walk into (scalars, maps, interfaces, types with their
// own MarshalJSON or MarshalText, structs whose field rules are not the
// plain ones) is handed to json.MarshalIndent with the prefix of its
// depth, which indents it exactly as it would be indented inside the
// whole document.
package jsonout

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/gwsim/gwsim/internal/jsonrule"
)

// indent is the indentation of one level, as gwsim's JSON output has
// always used.
const indent = "  "

// Split is the indented JSON of a value cut into parts: every list of more
// than run items is cut into runs of at most run items, each a part of its
// own, and the text around the runs (the skeleton) is encoded when the
// Split is made. Encoding every part with EncodePart, on any goroutines,
// and writing them in order gives exactly json.MarshalIndent(v, "", "  ").
type Split struct {
	parts []part
}

// part is skeleton text, or the items [from, to) of the list seq, each
// encoded at prefix, with the separator that follows them when more items
// come after to.
type part struct {
	text   []byte
	run    bool
	seq    reflect.Value
	from   int
	to     int
	prefix string
	more   bool
}

// New walks v and returns its Split; the error is one a value of the
// skeleton failed to encode with.
func New(v any, run int) (*Split, error) {
	sp := &splitter{run: max(run, 1)}
	if err := sp.value(reflect.ValueOf(v), ""); err != nil {
		return nil, err
	}
	sp.flush()
	return &Split{parts: sp.parts}, nil
}

// Len is the number of parts.
func (s *Split) Len() int { return len(s.parts) }

// EncodePart appends part i to out. Parts may be encoded concurrently,
// each once.
func (s *Split) EncodePart(i int, out *bytes.Buffer) error {
	p := &s.parts[i]
	if !p.run {
		out.Write(p.text)
		return nil
	}
	sep := ",\n" + p.prefix
	for k := p.from; k < p.to; k++ {
		b, err := json.MarshalIndent(leaf(p.seq.Index(k)), p.prefix, indent)
		if err != nil {
			return err
		}
		out.Write(b)
		if k+1 < p.to || p.more {
			out.WriteString(sep)
		}
	}
	return nil
}

// splitter is the walk's state: the parts so far and the skeleton text
// since the last run.
type splitter struct {
	run   int
	parts []part
	text  []byte
}

func (sp *splitter) flush() {
	if len(sp.text) > 0 {
		sp.parts = append(sp.parts, part{text: sp.text})
		sp.text = nil
	}
}

// value writes v, which starts at the current position of a line whose
// indentation is prefix.
func (sp *splitter) value(v reflect.Value, prefix string) error {
	if !v.IsValid() {
		sp.text = append(sp.text, "null"...)
		return nil
	}
	if !walkable(v.Type()) {
		return sp.leaf(v, prefix)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			sp.text = append(sp.text, "null"...)
			return nil
		}
		return sp.value(v.Elem(), prefix)
	case reflect.Struct:
		return sp.object(v, prefix)
	case reflect.Slice:
		if v.IsNil() {
			sp.text = append(sp.text, "null"...)
			return nil
		}
		return sp.list(v, prefix)
	case reflect.Array:
		return sp.list(v, prefix)
	}
	return sp.leaf(v, prefix)
}

// leaf encodes v with encoding/json into the skeleton.
func (sp *splitter) leaf(v reflect.Value, prefix string) error {
	b, err := json.MarshalIndent(leaf(v), prefix, indent)
	if err != nil {
		return err
	}
	sp.text = append(sp.text, b...)
	return nil
}

// leaf is what to hand encoding/json for v so that it encodes v as it
// would inside the whole value: through a pointer when v is addressable,
// since encoding/json calls a MarshalJSON or MarshalText with a pointer
// receiver on addressable values only.
func leaf(v reflect.Value) any {
	if v.CanAddr() {
		return v.Addr().Interface()
	}
	return v.Interface()
}

func (sp *splitter) object(v reflect.Value, prefix string) error {
	inner := prefix + indent
	wrote := false
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if f.omitEmpty && jsonrule.IsEmpty(fv) {
			continue
		}
		if wrote {
			sp.text = append(sp.text, ',')
		} else {
			sp.text = append(sp.text, '{')
		}
		sp.text = append(sp.text, '\n')
		sp.text = append(sp.text, inner...)
		sp.text = append(sp.text, f.key...)
		sp.text = append(sp.text, ": "...)
		if err := sp.value(fv, inner); err != nil {
			return err
		}
		wrote = true
	}
	if !wrote {
		sp.text = append(sp.text, "{}"...)
		return nil
	}
	sp.text = append(sp.text, '\n')
	sp.text = append(sp.text, prefix...)
	sp.text = append(sp.text, '}')
	return nil
}

func (sp *splitter) list(v reflect.Value, prefix string) error {
	n := v.Len()
	if n == 0 {
		sp.text = append(sp.text, "[]"...)
		return nil
	}
	if n <= sp.run && !walkable(v.Type().Elem()) {
		// Short, and nothing inside it is cut: encoding/json writes it
		// whole, rather than item by item.
		return sp.leaf(v, prefix)
	}
	inner := prefix + indent
	sp.text = append(sp.text, '[', '\n')
	sp.text = append(sp.text, inner...)
	if n > sp.run {
		sp.flush()
		for from := 0; from < n; from += sp.run {
			to := min(from+sp.run, n)
			sp.parts = append(sp.parts, part{run: true, seq: v, from: from, to: to, prefix: inner, more: to < n})
		}
	} else {
		for i := range n {
			if i > 0 {
				sp.text = append(sp.text, ",\n"...)
				sp.text = append(sp.text, inner...)
			}
			if err := sp.value(v.Index(i), inner); err != nil {
				return err
			}
		}
	}
	sp.text = append(sp.text, '\n')
	sp.text = append(sp.text, prefix...)
	sp.text = append(sp.text, ']')
	return nil
}

// field is a struct field as encoding/json writes it.
type field struct {
	index     int
	key       []byte // the quoted, escaped name
	omitEmpty bool
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// typeInfo is what the walk needs to know of a type, worked out once.
type typeInfo struct {
	walk   bool
	fields []field
}

var types sync.Map // reflect.Type -> *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := types.Load(t); ok {
		return ti.(*typeInfo)
	}
	// A recursive type reaches itself while its info is being worked
	// out; it is a leaf until then, which only means that a long list
	// inside it is not cut.
	types.Store(t, &typeInfo{})
	ti := &typeInfo{}
	ti.walk, ti.fields = describe(t)
	types.Store(t, ti)
	return ti
}

// walkable reports whether Split walks into values of type t: a struct
// with plain field rules, a pointer to one, or a list, that holds a list
// somewhere below. Everything else is encoded whole by encoding/json.
func walkable(t reflect.Type) bool { return infoOf(t).walk }

func fieldsOf(t reflect.Type) []field { return infoOf(t).fields }

func describe(t reflect.Type) (bool, []field) {
	if hasMarshaler(t) {
		return false, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return walkable(t.Elem()), nil
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !hasMarshaler(reflect.PointerTo(t.Elem())) {
			return false, nil // []byte is base64
		}
		return true, nil
	case reflect.Struct:
		fields, plain := plainFields(t)
		if !plain {
			return false, nil
		}
		for _, f := range fields {
			if walkable(t.Field(f.index).Type) {
				return true, fields
			}
		}
		return false, nil
	}
	return false, nil
}

// hasMarshaler reports whether encoding/json encodes a T, or a *T, with
// its own method.
func hasMarshaler(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
}

// plainFields lists t's fields as encoding/json writes them, when its rules
// for t are the plain ones: no embedded fields, no two fields of one name,
// no options but omitempty. Otherwise plain is false and t is encoded
// whole.
func plainFields(t reflect.Type) (fields []field, plain bool) {
	names := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, false
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		omitEmpty := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "":
			case "omitempty":
				omitEmpty = true
			default:
				return nil, false
			}
		}
		if !jsonrule.ValidTagName(name) {
			name = sf.Name
		}
		if names[name] {
			return nil, false
		}
		names[name] = true
		key, err := json.Marshal(name)
		if err != nil {
			return nil, false
		}
		fields = append(fields, field{index: i, key: key, omitEmpty: omitEmpty})
	}
	return fields, true
}

// MarshalIndentLibrary is the library call a Split's parts stand for,
// with the final newline gwsim prints: what gwsim prints when this fast
// path is off (GWSIM_FASTPATH, package internal/fastpath).
func MarshalIndentLibrary(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", indent)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
