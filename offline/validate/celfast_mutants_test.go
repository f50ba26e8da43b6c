package validate

import (
	"sort"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// Values the mutants put in place of strings, integers and objects: the
// ones the Gateway API rules test for (enum members of other members'
// fields, paths that break the path rules, wildcards, durations).
var (
	mutantStrings = []string{
		"", "x", "/a//b", "/a/../b", "/a/.", "foo", "*", "*.example.com", "1.2.3.4",
		"Exact", "PathPrefix", "RegularExpression", "RequestRedirect", "URLRewrite",
		"RequestHeaderModifier", "ResponseHeaderModifier", "RequestMirror", "CORS",
		"ExtensionRef", "ReplacePrefixMatch", "ReplaceFullPath", "Service", "Gateway",
		"HTTP", "HTTPS", "TLS", "TCP", "Terminate", "Passthrough", "10s", "0s", "1h",
	}
	mutantInts   = []int64{0, -1, 1, 2, 70000}
	mutantFields = map[string]any{
		"requestRedirect": map[string]any{"path": map[string]any{"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}},
		"urlRewrite":      map[string]any{"path": map[string]any{"type": "ReplaceFullPath", "replaceFullPath": "/x"}},
		"hostname":        "foo.example.com",
		"port":            int64(80),
		"sectionName":     "x",
		"name":            "dup",
		"tls":             map[string]any{"mode": "Passthrough"},
		"backendRequest":  "20s",
		"request":         "10s",
	}
)

// celMutants returns up to n copies of obj with one change each, spread
// evenly over every change the mutation rules give: a field deleted, a
// string, integer or object field replaced, a field added, a list emptied
// or its first element repeated. apiVersion and kind stay.
func celMutants(obj map[string]any, n int) []map[string]any {
	var edits []func(map[string]any)
	collectEdits(obj, nil, &edits)
	if len(edits) > n {
		picked := make([]func(map[string]any), 0, n)
		for i := range n {
			picked = append(picked, edits[i*len(edits)/n])
		}
		edits = picked
	}
	out := make([]map[string]any, 0, len(edits))
	for _, edit := range edits {
		m := admission.CopyJSONValue(obj).(map[string]any)
		edit(m)
		out = append(out, m)
	}
	return out
}

// step is one step of a path: a map key, or a list index when key is "".
type step struct {
	key   string
	index int
}

// at returns the value at path in root.
func at(root any, path []step) any {
	for _, s := range path {
		if s.key != "" {
			root = root.(map[string]any)[s.key]
		} else {
			root = root.([]any)[s.index]
		}
	}
	return root
}

// set puts v at path in root (path non-empty).
func set(root any, path []step, v any) {
	parent, last := at(root, path[:len(path)-1]), path[len(path)-1]
	if last.key != "" {
		parent.(map[string]any)[last.key] = v
	} else {
		parent.([]any)[last.index] = v
	}
}

func collectEdits(v any, path []step, edits *[]func(map[string]any)) {
	here := append([]step(nil), path...)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if len(here) == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			*edits = append(*edits, func(root map[string]any) { delete(at(root, here).(map[string]any), k) })
			collectEdits(v[k], append(here, step{key: k}), edits)
		}
		for _, k := range sortedKeys(mutantFields) {
			if _, ok := v[k]; !ok && len(here) > 0 {
				add := mutantFields[k]
				*edits = append(*edits, func(root map[string]any) { at(root, here).(map[string]any)[k] = admission.CopyJSONValue(add) })
			}
		}
	case []any:
		if len(here) == 0 {
			return
		}
		*edits = append(*edits, func(root map[string]any) { set(root, here, []any{}) })
		if len(v) > 0 {
			*edits = append(*edits, func(root map[string]any) {
				l := at(root, here).([]any)
				set(root, here, append(l, admission.CopyJSONValue(l[0])))
			})
		}
		for i, e := range v {
			collectEdits(e, append(here, step{index: i}), edits)
		}
	case string:
		for _, s := range mutantStrings {
			if s != v {
				*edits = append(*edits, func(root map[string]any) { set(root, here, s) })
			}
		}
	case int64:
		for _, n := range mutantInts {
			if n != v {
				*edits = append(*edits, func(root map[string]any) { set(root, here, n) })
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
