package validate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// mutation is one way to spoil a value: it returns the replacement and
// whether to keep the key at all (false deletes it).
type mutation struct {
	name  string
	apply func(v any) (any, bool)
}

// mutations are the changes the differential test makes at every field:
// deleted, retyped (string, integer, float, boolean, object, list, null),
// emptied, and out of bounds (too long in bytes and in runes, off-pattern,
// off-enum, negative, huge, too many items, duplicate items, too many
// keys, an unknown key).
var mutations = []mutation{
	{"delete", func(any) (any, bool) { return nil, false }},
	{"string", func(any) (any, bool) { return "x", true }},
	{"integer", func(any) (any, bool) { return int64(1), true }},
	{"float", func(any) (any, bool) { return 1.5, true }},
	{"integral float", func(any) (any, bool) { return float64(2), true }},
	{"boolean", func(any) (any, bool) { return true, true }},
	{"object", func(any) (any, bool) { return map[string]any{"name": "x"}, true }},
	{"list", func(any) (any, bool) { return []any{"x"}, true }},
	{"null", func(any) (any, bool) { return nil, true }},
	{"empty", func(v any) (any, bool) {
		switch v.(type) {
		case string:
			return "", true
		case []any:
			return []any{}, true
		case map[string]any:
			return map[string]any{}, true
		case int64:
			return int64(0), true
		}
		return v, true
	}},
	{"long", func(any) (any, bool) { return strings.Repeat("a", 300), true }},
	{"long runes", func(any) (any, bool) { return strings.Repeat("é", 200), true }},
	{"off pattern", func(any) (any, bool) { return "Bad_Value!", true }},
	{"off enum", func(any) (any, bool) { return "Bogus", true }},
	{"negative", func(any) (any, bool) { return int64(-1), true }},
	{"huge", func(any) (any, bool) { return int64(1) << 40, true }},
	{"int32 edge", func(any) (any, bool) { return int64(math.MaxInt32) + 1, true }},
	{"port edge", func(any) (any, bool) { return int64(65536), true }},
	{"many items", func(v any) (any, bool) {
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return v, true
		}
		out := make([]any, 0, 70)
		for i := 0; i < 70; i++ {
			out = append(out, admission.CopyJSONValue(l[i%len(l)]))
		}
		return out, true
	}},
	{"duplicate item", func(v any) (any, bool) {
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return v, true
		}
		return append(admission.CopyJSONValue(l).([]any), admission.CopyJSONValue(l[0])), true
	}},
	{"null item", func(v any) (any, bool) {
		l, ok := v.([]any)
		if !ok {
			return v, true
		}
		return append(admission.CopyJSONValue(l).([]any), nil), true
	}},
	{"many keys", func(v any) (any, bool) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, true
		}
		c := admission.CopyJSONValue(m).(map[string]any)
		for i := 0; i < 20; i++ {
			c[fmt.Sprintf("k%d", i)] = "v"
		}
		return c, true
	}},
	{"unknown key", func(v any) (any, bool) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, true
		}
		c := admission.CopyJSONValue(m).(map[string]any)
		c["zzUnknown"] = map[string]any{"a": nil}
		return c, true
	}},
}

// mutants returns, for each kind, each field path shape (indexes
// dropped) and each mutation not in seen yet, the first object of objs
// mutated there, and adds them to seen; of those it keeps one in stride.
func mutants(objs []corpusObject, seen map[string]bool, stride int) []corpusObject {
	var out []corpusObject
	n := 0
	for _, o := range objs {
		for _, p := range fieldPaths(o.obj, nil) {
			for _, mu := range mutations {
				key := o.gvk.String() + " " + shape(p) + " " + mu.name
				if seen[key] {
					continue
				}
				seen[key] = true
				n++
				if n%stride != 0 {
					continue
				}
				obj := admission.CopyJSONValue(o.obj).(map[string]any)
				if !mutateAt(obj, p, mu) {
					continue
				}
				out = append(out, corpusObject{gvk: o.gvk, obj: obj, where: fmt.Sprintf("%s at %v: %s", o.where, p, mu.name)})
			}
		}
	}
	return out
}

// fieldPaths lists the path of every value in v (keys as strings,
// indexes as ints), parents before children.
func fieldPaths(v any, prefix []any) [][]any {
	var out [][]any
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			p := append(append([]any(nil), prefix...), k)
			out = append(out, p)
			out = append(out, fieldPaths(v[k], p)...)
		}
	case []any:
		for i, e := range v {
			p := append(append([]any(nil), prefix...), i)
			out = append(out, p)
			out = append(out, fieldPaths(e, p)...)
		}
	}
	return out
}

func shape(p []any) string {
	var b strings.Builder
	for _, s := range p {
		if k, ok := s.(string); ok {
			b.WriteString("." + k)
		} else {
			b.WriteString("[]")
		}
	}
	return b.String()
}

// mutateAt applies mu to the value at path p of obj; false if p is not
// there.
func mutateAt(obj map[string]any, p []any, mu mutation) bool {
	var parent any = obj
	for _, s := range p[:len(p)-1] {
		switch c := parent.(type) {
		case map[string]any:
			parent = c[s.(string)]
		case []any:
			parent = c[s.(int)]
		default:
			return false
		}
	}
	switch c := parent.(type) {
	case map[string]any:
		k := p[len(p)-1].(string)
		v, keep := mu.apply(c[k])
		if keep {
			c[k] = v
		} else {
			delete(c, k)
		}
	case []any:
		i := p[len(p)-1].(int)
		v, keep := mu.apply(c[i])
		if !keep {
			v = nil
		}
		c[i] = v
	default:
		return false
	}
	return true
}
