package load

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"github.com/gwsim/gwsim/internal/fastpath/jsonin"
	"github.com/gwsim/gwsim/offline/scheme"
)

// scanHeader reads the header the way readHeaderJSON does, but walks the
// bytes once without decoding anything it does not need: it looks at the
// top-level keys only, descends into metadata, and skips every other value
// (while checking that it is well-formed JSON, as encoding/json would).
//
// It answers only when its header is certainly readHeaderJSON's. It gives
// up (ok false) on anything where the JSON decoder's rules are subtle: an
// escape in a key or in a value
// it reads, invalid UTF-8 in a value it reads, a repeated key of ours,
// apiVersion, kind, name or namespace that is not a string, metadata that
// is not an object, an items key (a List), a document that is not an
// object, deep nesting, and JSON that is not well-formed. The caller then
// uses readHeaderJSON, which gives today's header or error.
//
// sorted says that js is yamlin's output (see readHeader): the scan
// then stops at the first top-level key that sorts after "metadata".
func scanHeader(js []byte, sorted bool) (header, bool) {
	var h header
	s := jsonScan{Lexer: jsonin.Lexer{Data: js}}
	var seen fieldSet
	ok := s.object(func(key []byte) bool {
		f, known := topField(key)
		if !known && sorted && string(key) > "metadata" {
			// No key after this one can be apiVersion, items, kind or
			// metadata, nor an escape spelling one: they all sort
			// before it, and this key, without escapes, is itself.
			s.stop = true
			return true
		}
		if !known && sorted {
			return s.skipWellFormed()
		}
		if !known {
			return s.skip(1)
		}
		if !seen.add(f) {
			return false
		}
		switch f {
		case fieldAPIVersion:
			return s.plainString(&h.APIVersion, typeNames())
		case fieldKind:
			return s.plainString(&h.Kind, typeNames())
		case fieldMetadata:
			h.hasMetadata = true
			return s.metadata(&h)
		}
		return false // items and case variants
	})
	if !ok {
		return header{}, false
	}
	if s.stop {
		return h, true
	}
	return h, s.AtEnd()
}

// metadata reads name and namespace from the metadata object.
func (s *jsonScan) metadata(h *header) bool {
	var seen fieldSet
	return s.object(func(key []byte) bool {
		f, known := metaField(key)
		if !known {
			return s.skip(2)
		}
		if !seen.add(f) {
			return false
		}
		switch f {
		case fieldName:
			return s.plainString(&h.Name, nil)
		case fieldNamespace:
			return s.plainString(&h.Namespace, nil)
		}
		return false
	})
}

// field is a key the header scan reads; fieldUnsure is a key that may
// spell one through an escape.
type field uint8

const (
	fieldUnsure field = iota
	fieldAPIVersion
	fieldKind
	fieldMetadata
	fieldItems
	fieldName
	fieldNamespace
)

type fieldSet uint8

// add records f and reports whether it was new.
func (fs *fieldSet) add(f field) bool {
	bit := fieldSet(1) << f
	if *fs&bit != 0 {
		return false
	}
	*fs |= bit
	return true
}

// topField tells which top-level key this is; known is false for keys the
// header ignores. key is still escaped (see jsonScan.str).
func topField(key []byte) (f field, known bool) {
	switch string(key) {
	case "apiVersion":
		return fieldAPIVersion, true
	case "kind":
		return fieldKind, true
	case "metadata":
		return fieldMetadata, true
	case "items":
		return fieldItems, true
	}
	return unsure(key)
}

func metaField(key []byte) (f field, known bool) {
	switch string(key) {
	case "name":
		return fieldName, true
	case "namespace":
		return fieldNamespace, true
	}
	return unsure(key)
}

// unsure reports a key that is not exactly one of the header's as
// fieldUnsure when it has an escape, which might spell one of them. Keys
// match case-sensitively (readHeaderJSON), so `Kind` is just another key.
func unsure(key []byte) (field, bool) {
	if bytes.IndexByte(key, '\\') >= 0 {
		return fieldUnsure, true
	}
	return fieldUnsure, false
}

// maxScanDepth bounds nesting; deeper documents go to encoding/json, whose
// own limit is far higher.
const maxScanDepth = 200

// jsonScan walks JSON bytes with the fast readers' Lexer. Its methods
// report false when the input is not well-formed or the scan should give
// up.
type jsonScan struct {
	jsonin.Lexer
	// stop ends the scan of an object once a member's callback sets it.
	stop bool
}

// object reads an object, calling member with each key (raw, escapes
// intact) when the scan stands on the key's value.
func (s *jsonScan) object(member func(key []byte) bool) bool {
	if s.Peek() != '{' {
		return false
	}
	s.Pos++
	if s.Peek() == '}' {
		s.Pos++
		return true
	}
	for {
		if s.Peek() != '"' {
			return false
		}
		key, ok := s.RawString()
		if !ok || s.Peek() != ':' {
			return false
		}
		s.Pos++
		if !member(key) {
			return false
		}
		if s.stop {
			return true
		}
		switch s.Peek() {
		case ',':
			s.Pos++
		case '}':
			s.Pos++
			return true
		default:
			return false
		}
	}
}

// plainString reads a string value without escapes and of valid UTF-8,
// which encoding/json would return byte for byte: known's copy of it when
// known has it, else a copy of its own.
func (s *jsonScan) plainString(dst *string, known map[string]string) bool {
	if s.Peek() != '"' {
		return false
	}
	raw, ok := s.RawString()
	if !ok || bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		return false
	}
	if k, ok := known[string(raw)]; ok {
		*dst = k
		return true
	}
	*dst = string(raw)
	return true
}

// typeNames are the apiVersion and kind values of the kinds gwsim's
// scheme knows, each kept once, so that an object's header, and the
// references made from it that live through the run, do not hold copies
// of their own (two allocations per object fewer). The map is built on
// first use and never written after.
var typeNames = sync.OnceValue(func() map[string]string {
	names := map[string]string{}
	for gvk := range scheme.New().AllKnownTypes() {
		gv := gvk.GroupVersion().String()
		names[gv] = gv
		names[gvk.Kind] = gvk.Kind
	}
	return names
})

// skip checks and passes over one value at the given nesting depth.
func (s *jsonScan) skip(depth int) bool {
	switch c := s.Peek(); {
	case c == '"':
		_, ok := s.RawString()
		return ok
	case c == '{':
		return depth < maxScanDepth && s.object(func([]byte) bool { return s.skip(depth + 1) })
	case c == '[':
		return depth < maxScanDepth && s.array(depth)
	case c == '-' || '0' <= c && c <= '9':
		return s.Number()
	case c == 't':
		return s.Literal("true")
	case c == 'f':
		return s.Literal("false")
	case c == 'n':
		return s.Literal("null")
	}
	return false
}

// skipWellFormed skips the value at s.Pos of JSON known to be well-formed
// (yamlin's output), finding its end only: the brackets it opens, and
// the strings in it, which may hold brackets and escaped quotes.
func (s *jsonScan) skipWellFormed() bool {
	s.Space()
	depth := 0
	for s.Pos < len(s.Data) {
		switch s.Data[s.Pos] {
		case '"':
			if _, ok := s.RawString(); !ok {
				return false
			}
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return true // the end of a number or literal
			}
			if depth--; depth == 0 {
				s.Pos++
				return true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return true // the end of a number or literal
			}
		}
		s.Pos++
	}
	return depth == 0
}

func (s *jsonScan) array(depth int) bool {
	s.Pos++ // '['
	if s.Peek() == ']' {
		s.Pos++
		return true
	}
	for {
		if !s.skip(depth + 1) {
			return false
		}
		switch s.Peek() {
		case ',':
			s.Pos++
		case ']':
			s.Pos++
			return true
		default:
			return false
		}
	}
}
