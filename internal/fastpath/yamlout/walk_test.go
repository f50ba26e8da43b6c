package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate/ir"
)

// The walker (walk.go) must read typed values exactly as encoding/json
// writes them. These tests give it the struct shapes and methods
// encoding/json treats specially; same() compares the result with
// sigs.k8s.io/yaml and with the JSON path.

type valueMarshaler struct{ s string }

func (v valueMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal("value:" + v.s) }

type pointerMarshaler struct{ s string }

func (p *pointerMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal("pointer:" + p.s) }

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("text:" + string(k)), nil }

type pointerText struct{ N int }

func (p *pointerText) MarshalText() ([]byte, error) { return []byte("ptext"), nil }

type zeroer2 struct{ N int }

func (z zeroer2) IsZero() bool { return z.N == 42 }

type Inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type embedding struct {
	Inner
	C string `json:"c"`
}

type dominated struct {
	Inner
	A string `json:"a"`
}

type inner2 struct {
	D string `json:"d,omitempty"`
}

type hidden struct {
	inner2 `json:",inline"`
	C      string `json:"c"`
}

type pointerEmbed struct {
	*Inner
	C string `json:"c"`
}

type shapes2 struct {
	Plain        string            `json:"plain"`
	Empty        string            `json:"empty,omitempty"`
	Zero         Inner             `json:"zero,omitzero"`
	ZeroSet      Inner             `json:"zeroSet,omitzero"`
	StructEmpty  Inner             `json:"structEmpty,omitempty"`
	Ptr          *Inner            `json:"ptr"`
	NilPtr       *Inner            `json:"nilPtr"`
	NilPtrOmit   *Inner            `json:"nilPtrOmit,omitempty"`
	Slice        []Inner           `json:"slice"`
	NilSlice     []string          `json:"nilSlice"`
	EmptySlice   []string          `json:"emptySlice"`
	Map          map[string]int    `json:"map"`
	NilMap       map[string]int    `json:"nilMap"`
	IntKeys      map[int]string    `json:"intKeys"`
	TextKeys     map[textKey]int   `json:"textKeys"`
	Any          any               `json:"any"`
	AnyNil       any               `json:"anyNil"`
	Bytes        []byte            `json:"bytes"`
	Array        [3]uint8          `json:"array"`
	Float        float64           `json:"float"`
	Number       json.Number       `json:"number"`
	Raw          json.RawMessage   `json:"raw"`
	Value        valueMarshaler    `json:"value"`
	Pointer      pointerMarshaler  `json:"pointer"`
	PointerPtr   *pointerMarshaler `json:"pointerPtr"`
	PText        pointerText       `json:"ptext"`
	Time         metav1.Time       `json:"time"`
	ZeroTime     metav1.Time       `json:"zeroTime"`
	TimePtr      *metav1.Time      `json:"timePtr"`
	NilTimePtr   *metav1.Time      `json:"nilTimePtr,omitempty"`
	Stringly     int               `json:"stringly,string"`
	Dash         string            `json:"-"`
	DashName     string            `json:"-,"`
	NoTag        string
	Ünïcode      string
	Odd          string       `json:"a b!"`
	ZeroMethod   zeroer2      `json:"zeroMethod,omitzero"`
	Uint         uint64       `json:"uint"`
	Neg          int8         `json:"neg"`
	Bool         bool         `json:"bool"`
	BoolOmit     bool         `json:"boolOmit,omitempty"`
	Nested       [][]any      `json:"nested"`
	Embedding    embedding    `json:"embedding"`
	Dominated    dominated    `json:"dominated"`
	Hidden       hidden       `json:"hidden"`
	PointerEmbed pointerEmbed `json:"pointerEmbed"`
	NilEmbed     pointerEmbed `json:"nilEmbed"`
	unexported   string
	Long         string `json:"v10"`
	Long2        string `json:"v9"`
	Long3        string `json:"v1alpha1"`
}

func typedValues(s string) map[string]any {
	when := metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("x", 3600)))
	full := shapes2{
		Plain: s, ZeroSet: Inner{A: s}, Ptr: &Inner{A: s, B: 3}, Slice: []Inner{{A: s}, {}},
		EmptySlice: []string{}, Map: map[string]int{s: 1, "b": 2}, IntKeys: map[int]string{3: s, -1: "x"},
		TextKeys: map[textKey]int{"k": 1}, Any: []any{s, 1.5, map[string]any{s: nil}}, Bytes: []byte(s),
		Array: [3]uint8{1, 2, 3}, Float: 1e21, Number: "12", Raw: json.RawMessage(`{"z":1,"a":[]}`),
		Value: valueMarshaler{s}, Pointer: pointerMarshaler{s}, PointerPtr: &pointerMarshaler{s},
		Time: when, TimePtr: &when, Stringly: 7, Dash: s, DashName: s, NoTag: s, Ünïcode: s, Odd: s,
		ZeroMethod: zeroer2{N: 42}, Uint: 1 << 63, Neg: -8, Bool: true, Nested: [][]any{{}, {s}},
		Embedding: embedding{Inner: Inner{A: s}, C: s}, Dominated: dominated{Inner: Inner{A: s, B: 1}, A: s},
		Hidden: hidden{inner2{D: s}, s}, PointerEmbed: pointerEmbed{&Inner{A: s}, s}, unexported: s, Long: s, Long2: s, Long3: s,
	}
	return map[string]any{
		"value":   full,
		"pointer": &full,
		"slice":   []shapes2{full, {}},
		"empty":   shapes2{},
		"any":     []any{full, &full, Inner{A: s}},
		"key":     map[string]Inner{s: {A: s}},
		"string":  s,
	}
}

func TestTypedValues(t *testing.T) {
	for i, s := range append(nastyScalars(), "plain", strings.Repeat("word ", 40)) {
		for name, v := range typedValues(s) {
			if i%8 == 0 {
				same(t, name+" "+quote(s), v) // sigs.k8s.io/yaml is slow
				continue
			}
			sameTyped(t, name+" "+quote(s), v)
		}
	}
}

func TestEmpty(t *testing.T) {
	type status struct {
		Parents    []Inner     `json:"parents"`
		Conditions []Inner     `json:"conditions,omitempty"`
		Time       metav1.Time `json:"time"`
		Name       string      `json:"name,omitempty"`
	}
	cases := []struct {
		v    any
		want bool
	}{
		{nil, true},
		{status{}, true},
		{status{Parents: []Inner{}}, true},
		{status{Parents: []Inner{{}}}, false},
		{status{Time: metav1.NewTime(time.Unix(0, 0))}, false},
		{status{Name: "x"}, false},
		{map[string]any{"a": map[string]any{}, "b": []int{}, "c": nil}, true},
		{map[string]any{"a": ""}, false},
		{[]int{}, true},
		{[]int{0}, false},
	}
	e := NewEncoder(nil)
	for _, c := range cases {
		got, err := e.Empty(c.v)
		if err != nil || got != c.want {
			t.Errorf("Empty(%#v) = %v, %v; want %v", c.v, got, err, c.want)
		}
	}
}

// TestEncoderReuse writes several documents with one Encoder, which keeps
// its memory between them: each must come out as Marshal writes it alone.
func TestEncoderReuse(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	var want []byte
	for _, s := range nastyScalars() {
		for _, v := range []any{typedValues(s)["value"], map[string]any{s: s}, s} {
			m, merr := Marshal(v)
			err := e.Encode(v)
			if (err != nil) != (merr != nil) {
				t.Fatalf("%s: Encode error %v, Marshal error %v", quote(s), err, merr)
			}
			want = append(want, m...)
		}
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Error("an Encoder writing several documents differs from Marshal of each")
	}
}

// TestGoldenTyped reads the golden IR and status back into gwsim's own
// types and checks that the builder writes them as the JSON path does:
// the typed shapes the CLI prints.
func TestGoldenTyped(t *testing.T) {
	irs, _ := filepath.Glob("../../../golden/*/ir.yaml")
	statuses, _ := filepath.Glob("../../../golden/*/status.yaml")
	if len(irs) == 0 || len(statuses) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range irs {
		var model ir.IR
		if err := yaml.UnmarshalStrict(readFile(t, f), &model); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sameTyped(t, f, model)
		sameTyped(t, f, model.Gateways)
	}
	s := scheme.New()
	for _, f := range statuses {
		for i, doc := range splitDocuments(string(readFile(t, f))) {
			var meta metav1.TypeMeta
			if err := yaml.Unmarshal([]byte(doc), &meta); err != nil || meta.Kind == "" {
				continue
			}
			obj, err := s.New(schema.FromAPIVersionAndKind(meta.APIVersion, meta.Kind))
			if err != nil {
				t.Fatalf("%s#%d: %v", f, i, err)
			}
			if err := yaml.Unmarshal([]byte(doc), obj); err != nil {
				t.Fatalf("%s#%d: %v", f, i, err)
			}
			status := reflect.ValueOf(obj).Elem().FieldByName("Status")
			sameTyped(t, f, status.Interface())
			sameTyped(t, f, status.Addr().Interface())
		}
	}
}

// sameTyped compares Marshal with the JSON path alone: sigs.k8s.io/yaml
// takes seconds over the whole golden corpus, and the JSON path is checked
// against it everywhere else.
func sameTyped(t *testing.T, name string, v any) {
	t.Helper()
	want, wantErr := marshalJSONPath(v)
	got, err := Marshal(v)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Errorf("%s: builder and JSON path differ (errors %v, %v)\n--- JSON path\n%s\n--- builder\n%s", name, wantErr, err, want, got)
	}
	sameSplit(t, name, v, want, wantErr)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTimes checks the shortcut for metav1.Time against the JSON path at
// the edges of the years it takes (0 to 9999) and beyond them.
func TestTimes(t *testing.T) {
	for _, year := range []int{-1, 0, 1, 1970, 2026, 9999, 10000} {
		tm := metav1.NewTime(time.Date(year, 12, 31, 23, 59, 59, 999, time.FixedZone("x", -3600)))
		sameTyped(t, fmt.Sprint(year), map[string]any{"t": tm, "p": &tm, "l": []metav1.Time{tm}})
	}
}

// TestSharedPointers: values that share sub-structs by pointer (as the IR
// may, to save memory) are written in full at every place they appear, as
// encoding/json writes them, whole or cut into parts.
func TestSharedPointers(t *testing.T) {
	type node struct {
		Inner *Inner   `json:"inner,omitempty"`
		Also  *Inner   `json:"also"`
		List  []*Inner `json:"list"`
	}
	shared := &Inner{A: "shared", B: 3}
	var nodes []node
	for range 5 {
		nodes = append(nodes, node{Inner: shared, Also: shared, List: []*Inner{shared, shared, nil}})
	}
	sameTyped(t, "shared", nodes)
}
