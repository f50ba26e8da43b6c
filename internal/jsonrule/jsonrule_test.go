package jsonrule

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// TestIsEmptyMatchesEncodingJSON encodes values under an omitempty field
// and checks that IsEmpty says which of them encoding/json left out.
func TestIsEmptyMatchesEncodingJSON(t *testing.T) {
	type holder[T any] struct {
		V T `json:"v,omitempty"`
	}
	check := func(v any, encoded []byte) {
		t.Helper()
		omitted := string(encoded) == "{}"
		if got := IsEmpty(reflect.ValueOf(v)); got != omitted {
			t.Errorf("IsEmpty(%#v) = %v, encoding/json omitted it: %v", v, got, omitted)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1} {
		b, _ := json.Marshal(holder[float64]{v})
		check(v, b)
	}
	for _, v := range []string{"", "x"} {
		b, _ := json.Marshal(holder[string]{v})
		check(v, b)
	}
	for _, v := range [][]int{nil, {}, {1}} {
		b, _ := json.Marshal(holder[[]int]{v})
		check(v, b)
	}
	for _, v := range []bool{false, true} {
		b, _ := json.Marshal(holder[bool]{v})
		check(v, b)
	}
	for _, v := range []*int{nil, new(int)} {
		b, _ := json.Marshal(holder[*int]{v})
		check(v, b)
	}
	b, _ := json.Marshal(holder[struct{}]{})
	check(struct{}{}, b)
}

// TestValidTagName checks names against the key encoding/json writes for
// a field tagged with them: the name itself, or the Go name F.
func TestValidTagName(t *testing.T) {
	for _, name := range []string{"a", "a-b.c/d", "x y", "ünï", "a\\b", "a\"b", "", "a,b", "é1", "tab\t"} {
		v := reflect.New(reflect.StructOf([]reflect.StructField{{
			Name: "F", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + escapeTag(name) + `"`),
		}})).Elem()
		v.Field(0).SetInt(1)
		b, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]int
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		_, usedName := m[name]
		if got := ValidTagName(name); got != usedName {
			t.Errorf("ValidTagName(%q) = %v, encoding/json used it: %v (%s)", name, got, usedName, b)
		}
	}
}

// escapeTag writes name so that reflect.StructTag.Get returns it: the tag
// value is a Go string literal.
func escapeTag(name string) string {
	out := []byte{}
	for i := 0; i < len(name); i++ {
		if name[i] == '"' || name[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, name[i])
	}
	return string(out)
}
