package yamlout

import (
	"encoding/json"
	"testing"
)

// FuzzMarshal compares Marshal with the reference (sigs.k8s.io/yaml.Marshal
// with unprintable characters escaped, see reference) on a string
// placed in every position, a key, and arbitrary JSON passed through as a
// json.RawMessage (which encoding/json validates and compacts), and with
// the JSON path on typed values holding the string.
func FuzzMarshal(f *testing.F) {
	for _, s := range nastyScalars() {
		f.Add(s, s, []byte(nil))
	}
	raws := []string{
		`{}`, `[]`, `null`, `true`, `-0`, `-0.0`, `1e400`, `1E-7`, `123456789012345678901234`,
		`{"a":{"b":[1,{"c":[]}]},"a9":1,"a10":2,"a09":3}`,
		`{"a":1,"a":{"b":2}}`, `["\u0085", "\u2028", "\ud800"]`, `"a\/b"`, `{"v1alpha2":1,"v2":2,"v10":3}`,
		`[[[[[]]]],{"":{"":""}}]`, `{"key":"line one\nline two\n","x":"  lead","y":"trail  "}`,
	}
	for _, r := range raws {
		f.Add("x", "k", []byte(r))
	}
	f.Fuzz(func(t *testing.T, s, key string, raw []byte) {
		same(t, "root", s)
		same(t, "shapes", map[string]any{
			"s":   s,
			key:   []any{s, map[string]any{s: key, key: []any{}}},
			"kv":  map[string]any{key: map[string]any{s: s}},
			"seq": []any{[]any{s}, key},
		})
		// Typed values go through the builder's reflection; compare it with
		// the JSON path it replaces (sigs.k8s.io/yaml is slow on them).
		typed := typedValues(s)
		sameTyped(t, "typed", typed["pointer"])
		sameTyped(t, "typed key", map[string]any{key: typed["key"], s: Inner{A: key}})
		if json.Valid(raw) {
			same(t, "raw", json.RawMessage(raw))
			same(t, "raw nested", map[string]any{key: []any{json.RawMessage(raw)}})
		}
	})
}
