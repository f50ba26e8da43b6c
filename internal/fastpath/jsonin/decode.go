package jsonin

import (
	"encoding/base64"
	"reflect"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// FromMap fills into (a pointer to a new, zero object) from obj, the
// decoded JSON of that object with numbers as int64 or float64. It
// returns true when into is now exactly what
//
//	js, _ := json.Marshal(obj)
//	strictErrs, err := kjson.UnmarshalStrict(js, into)
//
// would make of it, with no error and no strict error. On false, into
// is in an unspecified state: the caller decodes a new object the
// library's way.
func (d *Decoder) FromMap(obj map[string]any, into any) bool {
	v := reflect.ValueOf(into)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return false
	}
	return d.value(d.planFor(v.Type().Elem()), v.Elem(), obj)
}

// value decodes x into v, whose plan is p.
func (d *Decoder) value(p *plan, v reflect.Value, x any) bool {
	if x == nil {
		// JSON null clears pointers, slices and maps and leaves
		// everything else as it is.
		return null(p, v)
	}
	switch p.kind {
	case stringKind:
		s, ok := x.(string)
		if !ok || !utf8.ValidString(s) {
			return false
		}
		v.SetString(s)
	case boolKind:
		b, ok := x.(bool)
		if !ok {
			return false
		}
		v.SetBool(b)
	case intKind:
		n, ok := x.(int64)
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
	case uintKind:
		n, ok := x.(int64)
		if !ok || n < 0 || v.OverflowUint(uint64(n)) {
			return false
		}
		v.SetUint(uint64(n))
	case pointerKind:
		if v.IsNil() {
			v.Set(reflect.New(p.typ.Elem()))
		}
		return d.value(p.elem, v.Elem(), x)
	case sliceKind:
		return d.slice(p, v, x)
	case mapKind:
		return d.mapValue(p, v, x)
	case structKind:
		return d.structValue(p, v, x)
	case bytesKind:
		s, ok := x.(string)
		return ok && utf8.ValidString(s) && setBytes(v, s)
	case intOrStringKind:
		switch x := x.(type) {
		case string:
			return utf8.ValidString(x) && setIntOrString(v, x, 0, true)
		case int64:
			return setIntOrString(v, "", x, false)
		}
		return false
	default:
		return false
	}
	return true
}

// null decodes JSON null into v: it clears pointers, slices and maps and
// leaves everything else as it is (metav1.Time and IntOrString have
// UnmarshalJSON methods that leave a zero value zero).
func null(p *plan, v reflect.Value) bool {
	switch p.kind {
	case pointerKind, sliceKind, mapKind, bytesKind:
		v.SetZero()
	case unsupported:
		return false
	}
	return true
}

// setBytes decodes base64 text into a []byte, as encoding/json does.
func setBytes(v reflect.Value, s string) bool {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return false
	}
	v.SetBytes(b)
	return true
}

// setIntOrString is IntOrString.UnmarshalJSON of a string or an integer:
// the integer must fit in an int32.
// v is addressable (a field, an item or a map's element) and written
// through a pointer, which spares boxing the value.
func setIntOrString(v reflect.Value, s string, n int64, isString bool) bool {
	is := (*intstr.IntOrString)(v.Addr().UnsafePointer())
	if isString {
		*is = intstr.IntOrString{Type: intstr.String, StrVal: s}
		return true
	}
	if n != int64(int32(n)) {
		return false
	}
	*is = intstr.IntOrString{Type: intstr.Int, IntVal: int32(n)}
	return true
}

func (d *Decoder) slice(p *plan, v reflect.Value, x any) bool {
	items, ok := x.([]any)
	if !ok {
		return false
	}
	s := reflect.MakeSlice(p.typ, len(items), len(items))
	for i, item := range items {
		if !d.value(p.elem, s.Index(i), item) {
			return false
		}
	}
	v.Set(s)
	return true
}

func (d *Decoder) mapValue(p *plan, v reflect.Value, x any) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(p.typ, len(m)))
	}
	keyType := p.typ.Key()
	elem := reflect.New(p.elem.typ).Elem() // SetMapIndex copies it
	for k, item := range m {
		if !utf8.ValidString(k) {
			return false
		}
		elem.SetZero()
		if !d.value(p.elem, elem, item) {
			return false
		}
		v.SetMapIndex(reflect.ValueOf(k).Convert(keyType), elem)
	}
	return true
}

func (d *Decoder) structValue(p *plan, v reflect.Value, x any) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	for k, item := range m {
		f, ok := p.fields[k]
		if !ok || f.plan == nil {
			return false
		}
		fv := v.Field(f.index[0])
		for _, i := range f.index[1:] {
			fv = fv.Field(i)
		}
		if !d.value(f.plan, fv, item) {
			return false
		}
	}
	return true
}
