package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/internal/corpus"
)

// reference is what Marshal must write: sigs.k8s.io/yaml.Marshal, but
// with the characters YAML does not take raw escaped in the JSON first
// (escapeUnprintable; written again here, rune by rune, so that the
// comparison does not trust the code under test).
func reference(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for len(j) > 0 {
		r, size := utf8.DecodeRune(j)
		switch {
		case r == 0x7F, r >= 0x80 && r <= 0x9F, r == 0x2028, r == 0x2029, r == 0xFFFE, r == 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.Write(j[:size]) // invalid UTF-8 stays as it was
		}
		j = j[size:]
	}
	return yaml.JSONToYAML([]byte(b.String()))
}

// same checks that Marshal and Encode agree with the reference (the
// sigs.k8s.io/yaml.Marshal of v with unprintable characters escaped): the
// same bytes, or both an error.
func same(t *testing.T, name string, v any) {
	t.Helper()
	want, wantErr := reference(v)
	got, gotErr := Marshal(v)
	if wantErr != nil || gotErr != nil {
		if wantErr == nil || gotErr == nil {
			t.Errorf("%s: error mismatch: sigs %v, yamlout %v", name, wantErr, gotErr)
		}
		return
	}
	if !bytes.Equal(got, want) {
		if ambiguousOrder(t, v) {
			// sigs.k8s.io/yaml's own output varies from run to run here.
			return
		}
		t.Errorf("%s: output differs\n--- sigs.k8s.io/yaml\n%s\n--- yamlout\n%s", name, want, got)
		return
	}
	var buf bytes.Buffer
	if err := Encode(&buf, v); err != nil || !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s: Encode differs from Marshal (err %v)", name, err)
	}
	if old, err := marshalJSONPath(v); err != nil || !bytes.Equal(old, want) {
		t.Errorf("%s: the JSON path differs from the reference (err %v)", name, err)
	}
	sameSplit(t, name, v, want, nil)
}

// shapes puts s everywhere a string can sit: root, map value, key, list
// item, nested under a sequence and under a key, and as a long key's value.
func shapes(s string) map[string]any {
	return map[string]any{
		"root":  s,
		"value": map[string]any{"k": s},
		"key":   map[string]any{s: "v"},
		"list":  []any{s, s},
		"deep":  map[string]any{"a": []any{map[string]any{"b": s, s: []any{s}}}},
		"seqs":  []any{[]any{s, []any{s}}},
		"long":  map[string]any{strings.Repeat("k", 70): s, strings.Repeat("x", 200): s},
	}
}

func TestScalars(t *testing.T) {
	for _, s := range nastyScalars() {
		for shape, v := range shapes(s) {
			same(t, shape+" "+quote(s), v)
		}
	}
}

// ambiguousOrder reports whether some object in v has keys that yaml.v2's
// order ranks in a cycle (for example "v1alpha2" < "v2" < "v10" <
// "v1alpha2"). sigs.k8s.io/yaml sorts such keys starting from Go's random
// map order, so its output is not deterministic and there is nothing to
// match; yamlout's is.
func ambiguousOrder(t *testing.T, v any) bool {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		return false
	}
	tr, root, err := parse(string(j))
	if err != nil {
		return false
	}
	for _, n := range append(tr.kids, root) {
		if n.kind != kindObject {
			continue
		}
		kids := tr.kids[n.off : n.off+2*n.n]
		for a := 0; a < len(kids); a += 2 {
			for b := a + 2; b < len(kids); b += 2 {
				if !keyLess(tr.text(kids[a]), tr.text(kids[b])) {
					return true
				}
			}
		}
	}
	return false
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	if len(b) > 60 {
		b = append(b[:57], "..."...)
	}
	return string(b)
}

func TestKeyOrder(t *testing.T) {
	keys := []string{
		"a", "b", "A", "B", "a10", "a9", "a09", "a009", "a1", "a01", "a0", "a00", "a", "ab", "a b", "a-b",
		"a_b", "a.b", "10", "9", "09", "0", "00", "1.5", "1e3", "x1y2", "x1y10", "x01y2", "x10", "x1",
		"10a", "10b", "1a", "01a", "é", "e", "z", "Ω", "日本", "١٢", "٣", "a١", "a2", "-", "_", "~",
		"", " ", "0a", "a0b", "a00b", "a000", "a0001", "v1alpha2", "v1beta1", "v1", "v2", "v10",
		"99999999999999999999", "99999999999999999998", "a1b", "a1c", "a10b", "z9", "z09", "z009",
	}
	m := map[string]any{}
	for i, k := range keys {
		m[k] = i
	}
	if !ambiguousOrder(t, m) {
		t.Fatal("test keys should include a cycle of yaml.v2's order")
	}
	// The largest prefix-greedy subset without cycles must match exactly.
	consistent := map[string]any{}
	for i, k := range keys {
		consistent[k] = i
		if ambiguousOrder(t, consistent) {
			delete(consistent, k)
		}
	}
	if len(consistent) < len(keys)*3/4 {
		t.Fatalf("only %d of %d keys are consistent", len(consistent), len(keys))
	}
	want, _ := yaml.Marshal(consistent)
	if got, _ := Marshal(consistent); !bytes.Equal(got, want) {
		t.Errorf("consistent keys differ\n--- sigs.k8s.io/yaml\n%s\n--- yamlout\n%s", want, got)
	}
	for _, a := range keys {
		for _, b := range keys {
			if a != b {
				same(t, "pair "+a+"|"+b, map[string]int{a: 1, b: 2})
			}
		}
	}
}

func TestNumbers(t *testing.T) {
	nums := []any{
		0, -1, 1, math.MaxInt64, math.MinInt64, uint64(math.MaxUint64), 1 << 53, 1<<53 + 1,
		0.5, -0.5, 1.5, 1e21, 1e20, 1e-7, 1e-6, 123456789.123, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Copysign(0, -1), float32(0.1), float32(1e21), 100.0, 1e100, -1e-100, 3.0,
		json.Number("1"), json.Number("-0"), json.Number("-0.0"), json.Number("0.0"), json.Number("1.0"),
		json.Number("1e5"), json.Number("1E5"), json.Number("1e+5"), json.Number("1e-5"), json.Number("-1.5E-10"),
		json.Number("1e400"), json.Number("-1e400"), json.Number("1e-400"), json.Number("9223372036854775807"),
		json.Number("9223372036854775808"), json.Number("18446744073709551615"), json.Number("18446744073709551616"),
		json.Number("-9223372036854775808"), json.Number("-9223372036854775809"), json.Number("123456789012345678901234567890"),
		json.Number("0.1e1"), json.Number("12345678901234567890.5"),
	}
	for _, n := range nums {
		b, _ := json.Marshal(n)
		same(t, string(b), map[string]any{"n": n, "l": []any{n}})
		same(t, "root "+string(b), n)
	}
}

func TestShapes(t *testing.T) {
	cases := map[string]any{
		"nil":          nil,
		"empty map":    map[string]any{},
		"empty list":   []any{},
		"nil list":     []int(nil),
		"empty nested": map[string]any{"a": map[string]any{}, "b": []any{}, "c": []any{[]any{}, map[string]any{}}, "d": nil},
		"lists":        []any{[]any{[]any{1, 2}, 3}, map[string]any{"a": []any{}}, []any{map[string]any{"x": 1, "y": []any{1}}}},
		"bools":        map[string]any{"t": true, "f": false},
		"bytes":        map[string]any{"b": []byte("hello\x00\xff")},
		"struct": struct {
			A string            `json:"a"`
			B []int             `json:"b,omitempty"`
			C map[string]string `json:"c"`
			D *int              `json:"d"`
		}{A: "x", C: map[string]string{"yes": "no"}},
		"raw dup keys": json.RawMessage(`{"a":1,"b":2,"a":3}`),
		"raw escapes":  json.RawMessage(`{"k\u00e9y":"\u0041\u00e9\u2028\u0007\b\f\n\r\t\"\\"}`),
		"raw slash":    json.RawMessage(`"a\/b"`),
		"raw surr":     json.RawMessage(`"\ud83d\ude00"`),
		"raw nul":      json.RawMessage(`"\u0000"`),
		"raw del":      json.RawMessage(`"\u007f"`),
		"raw nel":      json.RawMessage("\"a \u0085 b\""),
		"raw nel2":     json.RawMessage("\"a\u0085\u0085b\""),
		"raw nel doc":  json.RawMessage("\"a\u0085--- b\""),
		"raw ls":       json.RawMessage("\"a\u2028b\""),
		"raw bad utf8": json.RawMessage("\"a\xffb\""),
		"raw key nel":  json.RawMessage("{\"a\u0085b\":1}"),
	}
	for name, v := range cases {
		same(t, name, v)
	}
	deep := any("x")
	for range 10001 {
		deep = []any{deep}
	}
	same(t, "too deep", deep)
	ok := any("x")
	for range 9999 {
		ok = map[string]any{"a": ok}
	}
	same(t, "deep", ok)
	for _, n := range []int{1020, 1021, 1022, 1023, 1024, 1025} {
		same(t, "long key", map[string]int{strings.Repeat("k", n): 1})
		same(t, "long key é", map[string]int{strings.Repeat("é", n): 1})
		same(t, "long key esc", map[string]int{strings.Repeat("<", n/6): 1})
	}
}

// TestGolden round-trips every document of gwsim's golden outputs: the
// realistic shapes the CLI prints.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../../../golden/*/*.yaml")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range files {
		roundTripFile(t, f)
	}
}

// TestConformance round-trips the Gateway API conformance manifests.
func TestConformance(t *testing.T) {
	files := corpus.ConformanceManifests()
	if len(files) == 0 {
		corpus.Missing(t, corpus.ConformanceModule, nil)
	}
	for _, f := range files {
		roundTripFile(t, f)
	}
}

func roundTripFile(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range splitDocuments(string(data)) {
		var v any
		if err := yaml.Unmarshal([]byte(doc), &v); err != nil || v == nil {
			continue
		}
		same(t, path+"#"+string(rune('0'+i%10)), v)
	}
}

func splitDocuments(s string) []string {
	var docs []string
	var cur strings.Builder
	for line := range strings.Lines(s) {
		if strings.TrimRight(line, "\n") == "---" {
			docs = append(docs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	return append(docs, cur.String())
}
