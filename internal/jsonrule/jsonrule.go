// Package jsonrule holds encoding/json's rules for struct fields, which
// gwsim's own encoders and decoders (internal/fastpath/yamlout, jsonout,
// and jsonin) must follow to give encoding/json's results:
// encoding/json does not export them.
package jsonrule

import (
	"reflect"
	"strings"
	"unicode"
)

// ValidTagName reports whether a json tag's name is one encoding/json uses;
// it replaces any other by the field's Go name.
func ValidTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
			// Backslash and quote are reserved; other punctuation is
			// allowed.
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// IsEmpty is encoding/json's test for omitempty. (A negative zero is not
// empty: the test is reflect's IsZero.)
func IsEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
