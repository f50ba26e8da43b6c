package typed

// ObjectMap decodes js, one JSON object, into the generic form admission
// works on. It returns what sigs.k8s.io/json.UnmarshalCaseSensitivePreserveInts
// gives, integers as int64 and empty arrays as empty slices, or false
// when js is not an object or holds what it leaves to the library: a
// string with escapes, a number with a fraction or an exponent or too
// large for an int64, a key given twice (the library keeps the last), a
// syntax error.
func ObjectMap(js []byte) (map[string]any, bool) {
	return newReader(js).objectMap()
}

// ObjectMapShared is ObjectMap for js that never changes afterwards: the
// strings of the map share js's memory instead of a copy of it, and keep
// all of js alive while one of them is.
func ObjectMapShared(js []byte) (map[string]any, bool) {
	return newSharedReader(js).objectMap()
}

func (r reader) objectMap() (map[string]any, bool) {
	if r.next() != '{' {
		return nil, false
	}
	m, ok := r.anyObject()
	if !ok {
		return nil, false
	}
	r.space()
	return m, r.pos == len(r.data)
}

// anyValue reads one JSON value in its generic form.
func (r *reader) anyValue() (any, bool) {
	switch c := r.next(); {
	case c == '{':
		return r.anyObject()
	case c == '[':
		return r.anyArray()
	case c == '"':
		return r.str()
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return r.integer()
	}
	return nil, false
}

func (r *reader) anyObject() (map[string]any, bool) {
	if !r.open() {
		return nil, false
	}
	m := map[string]any{}
	if r.next() == '}' {
		r.close()
		return m, true
	}
	for {
		if r.next() != '"' {
			return nil, false
		}
		key, ok := r.str()
		if !ok || r.next() != ':' {
			return nil, false
		}
		r.pos++
		if _, dup := m[key]; dup {
			return nil, false
		}
		if m[key], ok = r.anyValue(); !ok {
			return nil, false
		}
		switch r.next() {
		case ',':
			r.pos++
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
	items := []any{}
	if r.next() == ']' {
		r.close()
		return items, true
	}
	for {
		item, ok := r.anyValue()
		if !ok {
			return nil, false
		}
		items = append(items, item)
		switch r.next() {
		case ',':
			r.pos++
		case ']':
			r.close()
			return items, true
		default:
			return nil, false
		}
	}
}
