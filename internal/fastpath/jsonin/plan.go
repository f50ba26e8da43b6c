// Package jsonin fills Go objects from decoded JSON values (the
// map[string]any that admission works on) without encoding them to JSON
// again. What it produces is exactly what encoding the value with
// encoding/json and decoding the text with sigs.k8s.io/json.UnmarshalStrict
// produces, the loader's reference: Decode answers only when it can
// prove that, and says no otherwise (a field the type does not have, a
// value of another type, a number that does not fit, a type with its own
// JSON decoding), so that the caller takes the library's path, which then
// gives the warnings and errors. TestFromMapMatchesLibrary checks the
// claim over every corpus gwsim has, and FuzzFromMap beyond it.
//
// What it leaves to the library: custom unmarshalers (resource.Quantity,
// metav1.Time other than null, ...; intstr.IntOrString is modelled),
// interface, float and array fields, `,string` fields, fields whose JSON
// names collide, and strings that are not valid UTF-8 (encoding/json would
// replace their bad bytes).
package jsonin

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/gwsim/gwsim/internal/jsonrule"
)

// Decoder holds the decoding plans of the types it has met. It is safe
// for concurrent use; a plan is built the first time its type is decoded.
type Decoder struct {
	plans sync.Map // reflect.Type -> *plan
	mu    sync.Mutex
}

// kind is how a plan decodes a value.
type kind uint8

const (
	// unsupported types are left to the library whenever a value is given.
	unsupported kind = iota
	stringKind
	boolKind
	intKind
	uintKind
	structKind
	pointerKind
	sliceKind
	mapKind
	// bytesKind is []byte: base64 text.
	bytesKind
	// intOrStringKind is intstr.IntOrString: a string or an int32.
	intOrStringKind
	// timeKind is metav1.Time, of which only null (kubectl's
	// `creationTimestamp: null`) is decoded here: text is parsed in the
	// local time zone, which is the library's business.
	timeKind
)

// plan decodes values into one Go type.
type plan struct {
	kind kind
	typ  reflect.Type
	// elem is the plan of a pointer's, slice's or map's element.
	elem *plan
	// fields are a struct's fields by JSON name.
	fields map[string]field
}

// field is one JSON name of a struct: where it is, and its plan. A nil
// plan marks a name that encoding/json would resolve in a way Decode does
// not model (a collision between embedded fields, a `,string` option).
type field struct {
	index []int
	plan  *plan
	// ordinal numbers the struct's names, to find one given twice.
	ordinal int
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumber      = reflect.TypeFor[json.Number]()
	intOrString     = reflect.TypeFor[intstr.IntOrString]()
	metaTime        = reflect.TypeFor[metav1.Time]()
)

// planFor returns t's plan, building it (and those of the types it holds)
// on first use.
func (d *Decoder) planFor(t reflect.Type) *plan {
	if p, ok := d.plans.Load(t); ok {
		return p.(*plan)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	building := map[reflect.Type]*plan{}
	p := d.build(t, building)
	for bt, bp := range building {
		d.plans.LoadOrStore(bt, bp)
	}
	return p
}

// build makes t's plan. building holds the plans under construction, so
// that a recursive type refers to its own plan.
func (d *Decoder) build(t reflect.Type, building map[reflect.Type]*plan) *plan {
	if p, ok := d.plans.Load(t); ok {
		return p.(*plan)
	}
	if p, ok := building[t]; ok {
		return p
	}
	p := &plan{typ: t}
	building[t] = p
	switch {
	case t == intOrString:
		p.kind = intOrStringKind
		return p
	case t == metaTime:
		p.kind = timeKind
		return p
	case customDecoding(t):
		return p
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = stringKind
	case reflect.Bool:
		p.kind = boolKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = intKind
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = uintKind
	case reflect.Pointer:
		p.kind, p.elem = pointerKind, d.build(t.Elem(), building)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if t.Elem() == reflect.TypeFor[byte]() {
				p.kind = bytesKind
			}
			return p
		}
		p.kind, p.elem = sliceKind, d.build(t.Elem(), building)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || customDecoding(t.Key()) {
			return p
		}
		p.kind, p.elem = mapKind, d.build(t.Elem(), building)
	case reflect.Struct:
		p.kind = structKind
		p.fields = map[string]field{}
		d.structFields(p, t, nil, building)
	}
	return p
}

// customDecoding reports whether encoding/json decodes t some other way
// than by its kind.
func customDecoding(t reflect.Type) bool {
	if t == jsonNumber {
		return true
	}
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonUnmarshaler) || u.Implements(textUnmarshaler) {
			return true
		}
	}
	return false
}

// structFields adds the JSON names of t's fields to p, following
// encoding/json: exported fields by tag name or Go name, `json:"-"`
// skipped, untagged embedded structs flattened into their parent. A name
// given twice (which encoding/json resolves by depth and tags) gets a nil
// plan, and so does an embedded pointer or a `,string` field: Decode
// declines them.
func (d *Decoder) structFields(p *plan, t reflect.Type, index []int, building map[reflect.Type]*plan) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		at := append(append([]int(nil), index...), i)
		if sf.Anonymous {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				if name == "" {
					// Promoted fields behind a pointer: not modelled.
					p.fields = nil
					p.kind = unsupported
					return
				}
			} else if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
			if name == "" && ft.Kind() == reflect.Struct {
				d.structFields(p, ft, at, building)
				if p.kind == unsupported {
					return
				}
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		if !sf.IsExported() {
			// An unexported embedded struct with a tag name.
			p.fields[name] = field{index: at, ordinal: len(p.fields)}
			continue
		}
		if !jsonrule.ValidTagName(name) {
			name = sf.Name
		}
		f := field{index: at, ordinal: len(p.fields)}
		if _, dup := p.fields[name]; !dup && !hasOption(opts, "string") {
			f.plan = d.build(sf.Type, building)
		}
		p.fields[name] = f
	}
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}
