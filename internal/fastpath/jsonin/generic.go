package jsonin

// ObjectMap decodes js, one JSON object, into the generic form admission
// works on. It returns what sigs.k8s.io/json.UnmarshalCaseSensitivePreserveInts
// gives, integers as int64 and empty arrays as empty slices, or false
// when js is not an object or holds what it leaves to the library: a
// string with escapes, a number with a fraction or an exponent or too
// large for an int64, a key given twice (the library keeps the last), a
// syntax error.
func ObjectMap(js []byte) (map[string]any, bool) {
	return newReader(js, true).objectMap()
}

// Scratch keeps the maps and slices of generic objects their user is
// done with, for ObjectMap to fill again: the generic form of the Gateway
// API objects was a fifth of what loading the 10k-route set allocated,
// and each is dropped once decoded into its Go type. The zero Scratch is
// ready; it is not safe for concurrent use.
type Scratch struct {
	maps   []map[string]any
	slices [][]any
}

// Only small maps (one group of slots) and slices are kept, so that
// iterating a reused map costs what iterating a new one does, and at
// most scratchKept of each.
const (
	smallMap    = 8
	smallSlice  = 16
	scratchKept = 4096
)

// ObjectMap is the package's ObjectMap, filling maps and slices that s
// keeps where it can.
func (s *Scratch) ObjectMap(js []byte) (map[string]any, bool) {
	r := newReader(js, true)
	r.scratch = s
	return r.objectMap()
}

// Recycle gives obj, a generic object, and every map and slice in it to
// s, to be filled again. Nothing may use obj or any part of it afterwards
// (the strings in it stay valid).
func (s *Scratch) Recycle(obj map[string]any) {
	s.recycle(obj)
}

func (s *Scratch) recycle(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			s.recycle(e)
		}
		if len(v) <= smallMap && len(s.maps) < scratchKept {
			clear(v)
			s.maps = append(s.maps, v)
		}
	case []any:
		for _, e := range v {
			s.recycle(e)
		}
		if cap(v) <= smallSlice && len(s.slices) < scratchKept {
			clear(v)
			s.slices = append(s.slices, v[:0])
		}
	}
}

// newMap is an empty map, a kept one when there is one.
func (r *reader) newMap() map[string]any {
	if s := r.scratch; s != nil && len(s.maps) > 0 {
		m := s.maps[len(s.maps)-1]
		s.maps = s.maps[:len(s.maps)-1]
		return m
	}
	return map[string]any{}
}

// newSlice is an empty, non-nil slice, a kept one when there is one.
func (r *reader) newSlice() []any {
	if s := r.scratch; s != nil && len(s.slices) > 0 {
		l := s.slices[len(s.slices)-1]
		s.slices = s.slices[:len(s.slices)-1]
		return l
	}
	return []any{}
}

func (r reader) objectMap() (map[string]any, bool) {
	if r.Peek() != '{' {
		return nil, false
	}
	m, ok := r.anyObject()
	if !ok {
		return nil, false
	}
	return m, r.AtEnd()
}

// anyValue reads one JSON value in its generic form.
func (r *reader) anyValue() (any, bool) {
	switch c := r.Peek(); {
	case c == '{':
		return r.anyObject()
	case c == '[':
		return r.anyArray()
	case c == '"':
		return r.str()
	case c == 't':
		return true, r.Literal("true")
	case c == 'f':
		return false, r.Literal("false")
	case c == 'n':
		return nil, r.Literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return r.Integer()
	}
	return nil, false
}

func (r *reader) anyObject() (map[string]any, bool) {
	if !r.open() {
		return nil, false
	}
	m := r.newMap()
	if r.Peek() == '}' {
		r.close()
		return m, true
	}
	for {
		if r.Peek() != '"' {
			return nil, false
		}
		key, ok := r.str()
		if !ok || r.Peek() != ':' {
			return nil, false
		}
		r.Pos++
		v, ok := r.anyValue()
		if !ok {
			return nil, false
		}
		// One map operation per key: a key given twice does not grow m.
		n := len(m)
		if m[key] = v; len(m) == n {
			return nil, false
		}
		switch r.Peek() {
		case ',':
			r.Pos++
		case '}':
			r.close()
			return m, true
		default:
			return nil, false
		}
	}
}

func (r *reader) anyArray() ([]any, bool) {
	if !r.open() {
		return nil, false
	}
	items := r.newSlice()
	if r.Peek() == ']' {
		r.close()
		return items, true
	}
	for {
		item, ok := r.anyValue()
		if !ok {
			return nil, false
		}
		items = append(items, item)
		switch r.Peek() {
		case ',':
			r.Pos++
		case ']':
			r.close()
			return items, true
		default:
			return nil, false
		}
	}
}
