package yamlout

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/internal/jsonrule"
)

// This file holds encoding/json's rules as the walker (walk.go) needs
// them: which values it writes itself, and how a struct type's fields come
// out.

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	zeroer        = reflect.TypeFor[interface{ IsZero() bool }]()
	jsonNumber    = reflect.TypeFor[json.Number]()
	timeType      = reflect.TypeFor[metav1.Time]()
)

// class is how the walker writes values of one type.
type class uint8

const (
	classPlain   class = iota // by kind
	classTime                 // metav1.Time or *metav1.Time
	classJSON                 // by encoding/json
	classJSONPtr              // by encoding/json when addressable: *T has the method
)

// classify says how the walker writes values of type t: encoding/json
// writes marshalers (through a pointer when the value is addressable, as
// encoding/json does), json.Number, floats, []byte, maps whose keys are not
// strings and the kinds it cannot encode; the walker writes the rest.
func classify(t reflect.Type) class {
	switch {
	case t == timeType || t.Kind() == reflect.Pointer && t.Elem() == timeType:
		return classTime
	case t.Implements(jsonMarshaler) || t.Implements(textMarshaler) || t == jsonNumber:
		return classJSON
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return classJSON
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return classJSON
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return classJSON
		}
	}
	if t.Kind() != reflect.Pointer {
		if pt := reflect.PointerTo(t); pt.Implements(jsonMarshaler) || pt.Implements(textMarshaler) {
			return classJSONPtr
		}
	}
	return classPlain
}

// structPlan is how encoding/json writes a struct type: its fields in
// yaml.v2's key order, or byJSON when the walker leaves the type to
// encoding/json.
type structPlan struct {
	fields []fieldPlan
	byJSON bool
}

type fieldPlan struct {
	index []int // for reflect.Value.FieldByIndex
	typ   reflect.Type
	info  *typeInfo // of typ, found when first needed
	name  string
	key   analysis // of name
	// plainKey is the key and its colon, when yaml.v2 writes the key
	// plain as a simple key: then it is written as it is.
	plainKey  string
	omitEmpty bool
	omitZero  bool
}

// of is the field's value in struct v.
func (f *fieldPlan) of(v reflect.Value) reflect.Value {
	if len(f.index) == 1 {
		return v.Field(f.index[0])
	}
	return v.FieldByIndex(f.index)
}

// omitted reports whether encoding/json leaves out the field of value fv.
func (f *fieldPlan) omitted(fv reflect.Value) bool {
	return f.omitEmpty && jsonrule.IsEmpty(fv) || f.omitZero && fv.IsZero()
}

// planStruct returns t's fields as encoding/json writes them, sorted the
// way yaml.v2 sorts keys. The fields of an embedded struct (not a pointer)
// without a tag name are promoted, as encoding/json does (HTTPRouteStatus
// embeds RouteStatus). A struct with another embedded field, a field
// tagged `,string`, a tag name the walker does not vouch for, two fields
// of one name anywhere (which encoding/json resolves by depth and tags),
// or omitzero on a type with an IsZero method is left to encoding/json.
func planStruct(t reflect.Type) *structPlan {
	p := &structPlan{}
	if !p.add(t, nil, map[string]bool{}) {
		return &structPlan{byJSON: true}
	}
	slices.SortFunc(p.fields, func(a, b fieldPlan) int { return compareKeys(a.name, b.name) })
	return p
}

// add appends the fields of struct t, reached through the fields at
// index, and reports whether the walker can write them.
func (p *structPlan) add(t reflect.Type, index []int, seen map[string]bool) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		at := append(slices.Clip(index), i)
		if sf.Anonymous {
			if tag == "-" {
				continue
			}
			if name != "" || sf.Type.Kind() != reflect.Struct || !p.add(sf.Type, at, seen) {
				return false
			}
			continue
		}
		if !sf.IsExported() || tag == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if !plainKey(name) || seen[name] {
			return false
		}
		seen[name] = true
		f := fieldPlan{index: at, typ: sf.Type, name: name, key: analyze(name)}
		if stringStyle(name, f.key, ctxSimpleKey) == stylePlain {
			f.plainKey = name + ":"
		}
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero = true
			case "string":
				return false
			}
		}
		if f.omitZero && (sf.Type.Implements(zeroer) || reflect.PointerTo(sf.Type).Implements(zeroer)) {
			return false
		}
		p.fields = append(p.fields, f)
	}
	return true
}

// plainKey accepts the keys the walker writes itself: letters, digits and
// "-_./", short enough for a YAML simple key. Others (a Go field name in
// another script, a tag name encoding/json would not take) are left to
// encoding/json.
func plainKey(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_./", c) >= 0) {
			return false
		}
	}
	return true
}

// compareKeys orders distinct keys as yaml.v2 does (see keyLess).
func compareKeys(a, b string) int {
	switch {
	case a == b:
		return 0
	case keyLess(a, b):
		return -1
	}
	return 1
}

// jsonWidth is the length of printable ASCII s as encoding/json quotes it,
// which is what yaml.v2 measures a key by (see maxSimpleKey).
func jsonWidth(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\':
			n++
		case '<', '>', '&':
			n += 5
		}
	}
	return n
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7E {
			return false
		}
	}
	return true
}
