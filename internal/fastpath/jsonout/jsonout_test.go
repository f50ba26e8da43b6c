package jsonout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// encode writes v through a Split cut at run, part by part.
func encode(t *testing.T, v any, run int) string {
	t.Helper()
	s, err := New(v, run)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var out bytes.Buffer
	for i := range s.Len() {
		if err := s.EncodePart(i, &out); err != nil {
			t.Fatalf("EncodePart(%d): %v", i, err)
		}
	}
	return out.String()
}

// upper has a MarshalJSON with a pointer receiver, which encoding/json
// calls on addressable values only.
type upper struct{ S string }

func (u *upper) MarshalJSON() ([]byte, error) { return json.Marshal(strings.ToUpper(u.S)) }

type word string

func (w word) MarshalText() ([]byte, error) { return []byte("<" + string(w) + ">"), nil }

type inner struct {
	Name  string   `json:"name"`
	Items []int    `json:"items,omitempty"`
	Tags  []string `json:"tags"`
	Up    upper    `json:"up"`
	UpPtr *upper   `json:"upPtr,omitempty"`
	// A negative zero is not empty to encoding/json.
	Weight float64 `json:"weight,omitempty"`
}

type embedded struct {
	inner
	Extra []int `json:"extra"`
}

type withOptions struct {
	N    int   `json:"n,string"`
	List []int `json:"list"`
}

type recursive struct {
	Name     string      `json:"name"`
	Children []recursive `json:"children,omitempty"`
}

type doc struct {
	Title    string           `json:"title"`
	Inners   []inner          `json:"inners"`
	Ptrs     []*inner         `json:"ptrs"`
	Nil      []inner          `json:"nil"`
	Empty    []inner          `json:"empty"`
	Omitted  []inner          `json:"omitted,omitempty"`
	Words    []word           `json:"words"`
	Bytes    []byte           `json:"bytes"`
	Map      map[string][]int `json:"map"`
	Any      any              `json:"any"`
	Array    [3][]int         `json:"array"`
	Embedded embedded         `json:"embedded"`
	Options  withOptions      `json:"options"`
	Tree     recursive        `json:"tree"`
	When     time.Time        `json:"when"`
	Raw      json.RawMessage  `json:"raw"`
	NoTag    []int
	Renamed  []int             `json:",omitempty"`
	Skipped  []int             `json:"-"`
	unexp    []int             //nolint:unused // encoding/json skips it
	HTML     string            `json:"h<t>m&l"`
	Nested   map[string]*inner `json:"nested"`
}

func sample(n int) doc {
	d := doc{
		Title:   "a <b> & c",
		Empty:   []inner{},
		Bytes:   []byte("bytes"),
		Map:     map[string][]int{"z": {1, 2}, "a": nil},
		Any:     []any{1, "two", map[string]any{"k": []int{3}}},
		Array:   [3][]int{{1}, nil, {2, 3, 4, 5}},
		Options: withOptions{N: 7, List: []int{1, 2, 3, 4, 5}},
		When:    time.Date(2026, 12, 4, 1, 2, 3, 0, time.UTC),
		Raw:     json.RawMessage(`{"b": [1,  2], "a": {}}`),
		NoTag:   []int{9, 8, 7, 6},
		HTML:    "<script>",
		Nested:  map[string]*inner{"x": {Name: "x", Items: []int{1}}},
		Tree:    recursive{Name: "root", Children: []recursive{{Name: "a", Children: []recursive{{Name: "b"}}}, {Name: "c"}}},
	}
	d.Embedded.Name = "e"
	d.Embedded.Extra = []int{1, 2, 3}
	for i := range n {
		in := inner{Name: fmt.Sprintf("inner-%d", i), Up: upper{S: "up"}}
		for k := range i % 5 {
			in.Items = append(in.Items, k)
			in.Tags = append(in.Tags, fmt.Sprint("t", k))
		}
		if i%2 == 0 {
			in.UpPtr = &upper{S: "ptr"}
			in.Weight = math.Copysign(0, -1)
		}
		d.Inners = append(d.Inners, in)
		d.Words = append(d.Words, word(fmt.Sprint("w", i)))
		if i%3 == 0 {
			d.Ptrs = append(d.Ptrs, nil)
		} else {
			d.Ptrs = append(d.Ptrs, &in)
		}
	}
	return d
}

// TestSplitMatchesMarshalIndent compares every cut of a value made of the
// cases encoding/json treats specially with json.MarshalIndent of the
// whole value, passed by value and through a pointer (which makes every
// field addressable, and so changes what a pointer-receiver MarshalJSON
// is called on).
func TestSplitMatchesMarshalIndent(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 30} {
		d := sample(n)
		for _, v := range []any{d, &d, d.Inners, []doc{d, d}, map[string]doc{"k": d}, nil, 42, "s"} {
			want, err := json.MarshalIndent(v, "", indent)
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range []int{1, 2, 3, 64} {
				if got := encode(t, v, run); got != string(want) {
					t.Fatalf("n=%d run=%d %T:\n got %s\nwant %s", n, run, v, got, want)
				}
			}
		}
	}
}

// TestSplitCutsLongLists checks that a long list is cut into runs, inside
// a struct inside a short list too, and that a struct Split does not walk
// (an embedded field) is one piece of skeleton.
func TestSplitCutsLongLists(t *testing.T) {
	d := sample(10)
	s, err := New([]doc{d}, 3)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, p := range s.parts {
		if p.run {
			runs++
		}
	}
	// Inners, Ptrs and Words have 10 items each: 4 runs of at most 3.
	// NoTag and Options.List are longer than 3 too, Array[2] as well.
	if runs < 12 {
		t.Errorf("%d runs, want every list of more than 3 items cut", runs)
	}
}

// TestSplitErrors: a value encoding/json cannot encode fails in New or in
// EncodePart, never silently.
func TestSplitErrors(t *testing.T) {
	type bad struct {
		F    func() `json:"f"`
		List []any  `json:"list"`
	}
	if _, err := New(bad{}, 1); err == nil {
		t.Error("New of a func field: no error")
	}
	s, err := New(struct {
		List []any `json:"list"`
	}{List: []any{1, 2, make(chan int)}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var failed bool
	for i := range s.Len() {
		if s.EncodePart(i, &bytes.Buffer{}) != nil {
			failed = true
		}
	}
	if !failed {
		t.Error("no part failed on a channel")
	}
}
