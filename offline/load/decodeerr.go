package load

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/diag"
)

// decodeError turns an error of decoding an object into its Go type into
// an error finding in Kubernetes terms, at the line of the offending field:
// `spec.ports[0].port: Invalid value: "string": must be of type integer`,
// never Go type names. The API server refuses such an object alone, so
// gwsim leaves it out and goes on. Type mismatches are the common case
// (core kinds, and every kind with --validate=false; with validation on,
// the schema reports them for the Gateway API kinds first); a Secret's
// value that is not base64 is named by its key; other errors keep their
// message.
func decodeError(js []byte, err error, src diag.Source, ref diag.ObjectRef, at origin) diag.Finding {
	f := parseError(src, ref, err.Error()+leftOut)
	var b64 base64.CorruptInputError
	if errors.As(err, &b64) {
		if path, ok := badBase64Key(js); ok {
			f.Field = path
			f.Source = at.fieldSource(src, path)
		}
		f.Message = fmt.Sprintf("Invalid value: illegal base64 data at input byte %d", int64(b64)) + leftOut
		return f
	}
	te, ok := typeErrorOf(err)
	if !ok {
		return f
	}
	path := indexedPath(js, te.field, te.offset)
	f.Field = path
	f.Source = at.fieldSource(src, path)
	f.Message = fmt.Sprintf("Invalid value: %q: must be of type %s", strings.TrimSpace(strings.SplitN(te.value, " ", 2)[0]), jsonTypeName(te.typ)) + leftOut
	return f
}

// badBase64Key finds the first key (in sorted order) of a Secret's data
// whose value is not base64, as `data[key]`; the decoder's error names
// only the byte.
func badBase64Key(js []byte) (string, bool) {
	var obj struct {
		Data map[string]any `json:"data"`
	}
	if json.Unmarshal(js, &obj) != nil {
		return "", false
	}
	keys := slices.Sorted(maps.Keys(obj.Data))
	for _, k := range keys {
		v, isString := obj.Data[k].(string)
		if !isString {
			continue
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return "data[" + k + "]", true
		}
	}
	return "", false
}

// typeError is what the JSON decoder says about a value of the wrong type.
type typeError struct {
	value  string // "object", "string", "number -5", ...
	typ    reflect.Type
	offset int64
	field  string // the path without indexes: spec.listeners.port
}

// typeErrorOf reads the decoder's *UnmarshalTypeError. sigs.k8s.io/json
// returns its own copy of encoding/json's type, from an internal package
// that cannot be named here, so its exported fields are read by name.
func typeErrorOf(err error) (typeError, bool) {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return typeError{value: ute.Value, typ: ute.Type, offset: ute.Offset, field: ute.Field}, true
	}
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().Name() != "UnmarshalTypeError" {
		return typeError{}, false
	}
	e := v.Elem()
	value, typ, offset, field := e.FieldByName("Value"), e.FieldByName("Type"), e.FieldByName("Offset"), e.FieldByName("Field")
	if value.Kind() != reflect.String || offset.Kind() != reflect.Int64 || field.Kind() != reflect.String {
		return typeError{}, false
	}
	t, ok := typ.Interface().(reflect.Type)
	if !ok || t == nil {
		return typeError{}, false
	}
	return typeError{value: value.String(), typ: t, offset: offset.Int(), field: field.String()}, true
}

// jsonTypeName names what a Go type decodes from, in the words of the
// OpenAPI schemas Kubernetes publishes.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string (base64)"
		}
		return "array"
	case reflect.Array:
		return "array"
	}
	return "object"
}

// indexedPath finds the field the decoder complained about and returns its
// path with list indexes (`spec.listeners[1].port`): the decoder gives the
// path without them (spec.listeners.port) and the offset just past the
// value. The last value at that path starting before the offset is the
// one. When nothing matches, the decoder's path is returned.
func indexedPath(js []byte, field string, offset int64) string {
	best := field
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var walk func(path, plain string) bool
	walk = func(path, plain string) bool {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if start < offset && plain == field {
			best = path
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return true
		}
		switch d {
		case '{':
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return false
				}
				k, _ := key.(string)
				if !walk(joinPath(path, k), joinPath(plain, k)) {
					return false
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if !walk(path+"["+strconv.Itoa(i)+"]", plain) {
					return false
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil || errors.Is(err, io.EOF)
	}
	walk("", "")
	return best
}
