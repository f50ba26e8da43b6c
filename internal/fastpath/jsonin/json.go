package jsonin

import (
	"bytes"
	"reflect"
	"unsafe"
)

// FromJSON fills into (a pointer to a new, zero object) from js, one JSON
// value. It returns true when into is now exactly what
// sigs.k8s.io/json.UnmarshalStrict(js, into) makes of it, with no error
// and no strict error. Besides what FromMap declines, it declines strings
// with escapes and numbers with a fraction or an exponent (the library
// decodes those by rules FromJSON does not repeat), and any duplicate key
// or syntax error. On false, into is in an unspecified state.
func (d *Decoder) FromJSON(js []byte, into any) bool {
	v := reflect.ValueOf(into)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return false
	}
	r := newReader(js, false)
	if !r.value(d, d.planFor(v.Type().Elem()), v.Elem()) {
		return false
	}
	return r.AtEnd()
}

// reader reads JSON with its Lexer, decoding it as it goes.
type reader struct {
	Lexer
	// kept holds the bytes of the strings the decoded value keeps, copied
	// out of data one after the other: one allocation per document, sized
	// by a first scan (keptBytes), instead of one per string. The strings
	// are cut from it (see keep) and keep it alive, not the document:
	// string values are about a quarter of a manifest's JSON, and the
	// decoded objects live through the whole run.
	kept []byte
	// depth counts the objects and arrays open at pos: past maxDepth
	// the reader declines, long before the library's own limit.
	depth int
	// scratch, when not nil, has maps and slices to fill again.
	scratch *Scratch
}

const maxDepth = 1000

// open enters an object or array; close leaves it.
func (r *reader) open() bool {
	r.Pos++
	r.depth++
	return r.depth <= maxDepth
}

func (r *reader) close() {
	r.Pos++
	r.depth--
}

// newReader reads js, keeping room for the strings a decode keeps: the
// string values, and the keys too when withKeys (a generic map keeps
// them; a struct only looks its fields up).
func newReader(js []byte, withKeys bool) reader {
	return reader{Lexer: Lexer{Data: js}, kept: make([]byte, 0, keptBytes(js, withKeys))}
}

// keptBytes is the length of js's string values, and of its keys when
// withKeys: where a string's closing quote is followed by a colon, it was
// a key. It need not be exact (an escape, which makes the decode decline
// anyway, throws it off): keep copies what does not fit on its own.
func keptBytes(js []byte, withKeys bool) int {
	n := 0
	for i := 0; i < len(js); i++ {
		if js[i] != '"' {
			continue
		}
		end := bytes.IndexByte(js[i+1:], '"')
		if end < 0 {
			break
		}
		j := i + 1 + end + 1
		for j < len(js) && (js[j] == ' ' || js[j] == '\t' || js[j] == '\n' || js[j] == '\r') {
			j++
		}
		if withKeys || j >= len(js) || js[j] != ':' {
			n += end
		}
		i += end + 1
	}
	return n
}

// keep returns b as a string the decoded value may keep: a copy in kept
// when it fits, else a string of its own. Bytes once in kept are never
// written again (kept only grows within its capacity), so the strings cut
// from it stay as they were.
func (r *reader) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(r.kept)+len(b) > cap(r.kept) {
		return string(b)
	}
	start := len(r.kept)
	r.kept = append(r.kept, b...)
	return unsafe.String(&r.kept[start], len(b))
}

// value reads one JSON value into v, whose plan is p.
func (r *reader) value(d *Decoder, p *plan, v reflect.Value) bool {
	switch c := r.Peek(); {
	case c == 'n':
		return r.Literal("null") && null(p, v)
	case p.kind == pointerKind:
		if v.IsNil() {
			v.Set(reflect.New(p.typ.Elem()))
		}
		return r.value(d, p.elem, v.Elem())
	case c == '{':
		return r.object(d, p, v)
	case c == '[':
		return p.kind == sliceKind && r.array(d, p, v)
	case c == '"':
		s, ok := r.str()
		return ok && setString(p, v, s)
	case c == 't' || c == 'f':
		b := c == 't'
		ok := r.Literal("true") || r.Literal("false")
		if !ok || p.kind != boolKind {
			return false
		}
		v.SetBool(b)
		return true
	case c == '-' || c >= '0' && c <= '9':
		n, ok := r.Integer()
		return ok && setInt(p, v, n)
	}
	return false
}

// setString decodes a string (valid UTF-8, no escapes) into v.
func setString(p *plan, v reflect.Value, s string) bool {
	switch p.kind {
	case stringKind:
		v.SetString(s)
		return true
	case bytesKind:
		return setBytes(v, s)
	case intOrStringKind:
		return setIntOrString(v, s, 0, true)
	}
	return false
}

// setInt decodes an integer into v.
func setInt(p *plan, v reflect.Value, n int64) bool {
	switch p.kind {
	case intKind:
		if v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case uintKind:
		if n < 0 || v.OverflowUint(uint64(n)) {
			return false
		}
		v.SetUint(uint64(n))
		return true
	case intOrStringKind:
		return setIntOrString(v, "", n, false)
	}
	return false
}

// str reads a string without escapes whose bytes are valid UTF-8: its
// text is then exactly the string the library decodes. The string is one
// the decoded value may keep (see keep).
func (r *reader) str() (string, bool) {
	b, ok := r.PlainString()
	if !ok {
		return "", false
	}
	return r.keep(b), true
}

// name reads a string as str does, for a look-up only: the string shares
// the document's bytes, and must not be kept past the decode.
func (r *reader) name() (string, bool) {
	b, ok := r.PlainString()
	if !ok || len(b) == 0 {
		return "", ok
	}
	return unsafe.String(&b[0], len(b)), true
}

// object reads a JSON object into a struct or a map.
func (r *reader) object(d *Decoder, p *plan, v reflect.Value) bool {
	var seen uint64        // a struct's fields already given, by ordinal
	var elem reflect.Value // a map's element; SetMapIndex copies it
	switch p.kind {
	case structKind:
		if len(p.fields) > 64 {
			return false
		}
	case mapKind:
		if v.IsNil() {
			v.Set(reflect.MakeMap(p.typ))
		}
		elem = reflect.New(p.elem.typ).Elem()
	default:
		return false
	}
	if !r.open() {
		return false
	}
	if r.Peek() == '}' {
		r.close()
		return true
	}
	for {
		if r.Peek() != '"' {
			return false
		}
		// A field's name is only looked up; a map's key is kept.
		var key string
		var ok bool
		if p.kind == structKind {
			key, ok = r.name()
		} else {
			key, ok = r.str()
		}
		if !ok || r.Peek() != ':' {
			return false
		}
		r.Pos++
		if p.kind == structKind {
			f, ok := p.fields[key]
			if !ok || f.plan == nil || seen&(1<<f.ordinal) != 0 {
				return false
			}
			seen |= 1 << f.ordinal
			fv := v.Field(f.index[0])
			for _, i := range f.index[1:] {
				fv = fv.Field(i)
			}
			if !r.value(d, f.plan, fv) {
				return false
			}
		} else {
			k := reflect.ValueOf(key).Convert(p.typ.Key())
			if v.MapIndex(k).IsValid() {
				return false
			}
			elem.SetZero()
			if !r.value(d, p.elem, elem) {
				return false
			}
			v.SetMapIndex(k, elem)
		}
		switch r.Peek() {
		case ',':
			r.Pos++
		case '}':
			r.close()
			return true
		default:
			return false
		}
	}
}

// array reads a JSON array into a slice: empty, it is an empty slice, not
// nil.
func (r *reader) array(d *Decoder, p *plan, v reflect.Value) bool {
	if !r.open() {
		return false
	}
	// The items are decoded in place: v is addressable (a field, an item
	// or a map's element), and on false its state does not matter.
	v.Set(reflect.MakeSlice(p.typ, 0, 0))
	if r.Peek() == ']' {
		r.close()
		return true
	}
	for i := 0; ; i++ {
		if i == v.Cap() {
			v.Grow(1) // amortised, and no more room than encoding/json leaves
		}
		v.SetLen(i + 1)
		if !r.value(d, p.elem, v.Index(i)) {
			return false
		}
		switch r.Peek() {
		case ',':
			r.Pos++
		case ']':
			r.close()
			return true
		default:
			return false
		}
	}
}
