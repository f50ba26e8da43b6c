package admission

import (
	"sort"
	"strings"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiserver/pkg/cel/environment"
)

// describe writes what r covers: "*" for a whole subtree, {name...} for
// fields, [...] for every element.
func (r *readSet) describe() string {
	if r.whole {
		return "*"
	}
	var b strings.Builder
	if len(r.fields) > 0 {
		names := make([]string, 0, len(r.fields))
		for name := range r.fields {
			names = append(names, name)
		}
		sort.Strings(names)
		b.WriteString("{")
		for i, name := range names {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(name + r.fields[name].describe())
		}
		b.WriteString("}")
	}
	if r.elem != nil {
		b.WriteString("[" + r.elem.describe() + "]")
	}
	return b.String()
}

// testSchema is a schema for the analysis tests: self is an object with a
// list of objects (items), a string (type) and a nested object (a.b).
func testSchema() *structuralschema.Structural {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	item := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{"type": str, "name": str, "value": str}}
	return &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{
			"type":  str,
			"items": {Generic: structuralschema.Generic{Type: "array"}, Items: &item},
			"a":     {Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{"b": str}},
			"labels": {Generic: structuralschema.Generic{Type: "object"},
				AdditionalProperties: &structuralschema.StructuralOrBool{Structural: &str}},
		}}
}

func TestAnalyzeRuleReads(t *testing.T) {
	env := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).StoredExpressionsEnv()
	tests := []struct {
		rule   string
		want   string
		unsure bool
	}{
		{"self.type == 'X'", "{type*}", false},
		{"has(self.a) ? self.a.b != '' : true", "{a{b*}}", false},
		{"self.items.filter(f, f.type == 'X').size() <= 1", "{items[{type*}]}", false},
		{"self.items.all(i, self.items.exists_one(j, i.name == j.name))", "{items[{name*}]}", false},
		{"(self.items.size() > 0 ? self.items[0].value.size() : 0) < 3", "{items[{value*}]}", false},
		{"'*' in self.items", "{items*}", false},
		{"self.items.map(i, i.value).all(v, v != '')", "{items[{value*}]}", false},
		{"cel.bind(x, self.a, x.b == 'y')", "{a*}", false}, // no bindings in the environment: a function call
		{"self.items == self.items", "{items*}", false},
		{"self.a.__namespace__ == 'x' || true", "{a{namespace*}}", false},
		{"self.__bogus__ == 'x'", "*", false},
		{"self.labels.all(k, k.size() < 3)", "{labels*}", false},
		{"self.labels.exists(k, k == 'a')", "{labels*}", true},
		{"!self.labels.all(k, k.size() < 3)", "{labels*}", true},
		{"self.?a.orValue(null) == null", "*", false},
	}
	for _, tt := range tests {
		root := &readSet{schema: newCELSchema(testSchema())}
		unsure := analyzeRule(env, tt.rule, root)
		if got := root.describe(); got != tt.want || unsure != tt.unsure {
			t.Errorf("%s: reads %s (unsure %v), want %s (unsure %v)", tt.rule, got, unsure, tt.want, tt.unsure)
		}
	}
}

// TestAppendKey checks that keys tell apart what the reads cover and only
// that.
func TestAppendKey(t *testing.T) {
	env := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).StoredExpressionsEnv()
	root := &readSet{schema: newCELSchema(testSchema())}
	analyzeRule(env, "self.items.filter(f, f.type == 'X').size() <= 1 && has(self.a)", root)
	root.seal()
	key := func(v map[string]any) string {
		k, ok := appendKey(nil, v, root)
		if !ok {
			t.Fatalf("no key for %v", v)
		}
		return string(k)
	}
	base := map[string]any{"type": "t", "items": []any{map[string]any{"type": "X", "name": "n"}}, "a": map[string]any{"b": "c"}}
	same := []map[string]any{
		{"type": "other", "items": []any{map[string]any{"type": "X", "name": "m"}}, "a": map[string]any{"b": "d"}},
		{"items": []any{map[string]any{"type": "X"}}, "a": map[string]any{}},
	}
	differ := []map[string]any{
		{"items": []any{map[string]any{"type": "Y"}}, "a": map[string]any{}},
		{"items": []any{map[string]any{"type": "X"}, map[string]any{"type": "X"}}, "a": map[string]any{}},
		{"items": []any{map[string]any{"type": "X"}}},
		{"items": []any{map[string]any{"type": "X"}}, "a": nil},
		{"items": []any{map[string]any{"type": int64(1)}}, "a": map[string]any{}},
		{"items": []any{}, "a": map[string]any{}},
	}
	for _, v := range same {
		if key(v) != key(base) {
			t.Errorf("%v: key differs from %v's, though the rule reads the same", v, base)
		}
	}
	for _, v := range differ {
		if key(v) == key(base) {
			t.Errorf("%v: same key as %v, though the rule reads something else", v, base)
		}
	}
}
