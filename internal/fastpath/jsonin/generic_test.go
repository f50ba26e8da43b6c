package jsonin

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	kjson "sigs.k8s.io/json"
)

// differentialMap fails t when ObjectMap answers for js and its map is
// not what UnmarshalCaseSensitivePreserveInts gives, and reports whether
// it answered.
func differentialMap(t testing.TB, js []byte) bool {
	t.Helper()
	got, ok := ObjectMap(js)
	// With a Scratch, the second read fills the maps and slices of the
	// first, recycled.
	var s Scratch
	if first, ok := s.ObjectMap(bytes.Clone(js)); ok {
		s.Recycle(first)
	}
	if again, againOK := s.ObjectMap(bytes.Clone(js)); againOK != ok || !reflect.DeepEqual(again, got) {
		t.Errorf("Scratch.ObjectMap differs from ObjectMap on %s: %v %#v, want %v %#v", js, againOK, again, ok, got)
	}
	if !ok {
		return false
	}
	var want map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &want); err != nil {
		t.Errorf("ObjectMap took %s, which the library refuses: %v", js, err)
	} else if !reflect.DeepEqual(got, want) {
		t.Errorf("ObjectMap differs on %s:\n got %#v\nwant %#v", js, got, want)
	}
	return true
}

func TestScratchReusesMapsAndSlices(t *testing.T) {
	var s Scratch
	first, ok := s.ObjectMap([]byte(`{"a":{"b":[1,{"c":"d"}]},"e":[]}`))
	if !ok {
		t.Fatal("declined")
	}
	inner := first["a"].(map[string]any)
	s.Recycle(first)
	if len(inner) != 0 || len(s.maps) != 3 || len(s.slices) != 2 {
		t.Fatalf("after Recycle: inner map %v, %d maps and %d slices kept; want it emptied, 3 and 2", inner, len(s.maps), len(s.slices))
	}
	second, ok := s.ObjectMap([]byte(`{"x":["y"],"z":{"w":{}}}`))
	want := map[string]any{"x": []any{"y"}, "z": map[string]any{"w": map[string]any{}}}
	if !ok || !reflect.DeepEqual(second, want) {
		t.Fatalf("second read = %#v, %v; want %#v", second, ok, want)
	}
	if len(s.maps) != 0 || len(s.slices) != 1 {
		t.Errorf("%d maps and %d slices left; want 0 and 1", len(s.maps), len(s.slices))
	}
}

func TestObjectMapMatchesLibrary(t *testing.T) {
	tests := []struct {
		js   string
		take bool
	}{
		{`{}`, true},
		{` {"a" : [ ] , "b":{}, "c":null, "d":true, "e":false, "f":-0, "g":9223372036854775807, "h":"é"} `, true},
		{`{"a":[1,"x",[null],{"b":[]}]}`, true},
		{`{"a":9223372036854775808}`, false},
		{`{"a":1.5}`, false},
		{`{"a":1e3}`, false},
		{`{"a":"\n"}`, false},
		{`{"a":1,"a":2}`, false},
		{`{"a":1,}`, false},
		{`{"a":[1,]}`, false},
		{`{"a":tru}`, false},
		{`{"a":1} {}`, false},
		{`[]`, false},
		{`null`, false},
		{"{\"a\":\"\xff\"}", false},
		{strings.Repeat(`{"a":`, 2000) + `1` + strings.Repeat(`}`, 2000), false},
		{`{"a":` + strings.Repeat(`[`, 999) + strings.Repeat(`]`, 999) + `}`, true},
	}
	for _, tt := range tests {
		if took := differentialMap(t, []byte(tt.js)); took != tt.take {
			t.Errorf("%.80s: ObjectMap answered %v, want %v", tt.js, took, tt.take)
		}
	}
}

// FuzzObjectMap: whatever ObjectMap takes, it decodes as the library does.
func FuzzObjectMap(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","labels":{"a":null}},"spec":{"ports":[{"port":80,"targetPort":"http"}]}}`))
	f.Add([]byte(`{"a":[[],{},-0,true,false,null,""]}`))
	f.Fuzz(func(t *testing.T, js []byte) {
		differentialMap(t, js)
	})
}
