package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestTableMatchesScan checks the table's answers against a scan of every
// object after each step of random adds, replaces and removes (only adds
// in the building state, as Build makes): full listings, namespaces, and
// index values with and without a namespace, each sorted by namespace and
// name.
func TestTableMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// ConfigMaps whose data keys are their index values, with duplicates
	// and in any order, as an index function may return them.
	extract := func(o client.Object) []string {
		var out []string
		for k := range o.(*corev1.ConfigMap).Data {
			v, _, _ := strings.Cut(k, "#")
			out = append(out, v)
		}
		return out
	}
	namespaces := []string{"", "a", "b", "c"}
	values := []string{"x", "y", "z", "w"}
	random := func(ns, name string) *corev1.ConfigMap {
		cm := configMap(ns, name, map[string]string{})
		for i := range rng.IntN(4) {
			cm.Data[fmt.Sprintf("%s#%d", values[rng.IntN(len(values))], i)] = ""
		}
		return cm
	}
	tb := newTable([]*fieldIndex{{field: "f", extract: extract, byValue: map[string][]*entry{}}})
	model := map[string]client.Object{}
	for step := range 1500 {
		if step == 100 {
			tb.finishBuild()
		}
		ns, name := namespaces[rng.IntN(len(namespaces))], fmt.Sprintf("o%02d", rng.IntN(25))
		key := ns + "/" + name
		old, exists := model[key]
		switch {
		case !exists:
			model[key] = random(ns, name)
			tb.add(model[key])
		case tb.building:
			continue
		case rng.IntN(3) > 0:
			next := random(ns, name)
			tb.replace(old, next, false)
			model[key] = next
		default:
			tb.remove(old)
			delete(model, key)
		}
		if tb.building {
			continue
		}
		var all []client.Object
		valuesOf := map[client.Object][]string{}
		for _, k := range slices.Sorted(maps.Keys(model)) {
			all = append(all, model[k])
			valuesOf[model[k]] = extract(model[k])
		}
		check := func(what string, got []client.Object, keep func(client.Object) bool) {
			t.Helper()
			want := slices.DeleteFunc(slices.Clone(all), func(o client.Object) bool { return !keep(o) })
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: %s: got %v, want %v", step, what, names(got), names(want))
			}
		}
		check("all", tb.list(), func(client.Object) bool { return true })
		for _, ns := range namespaces {
			check("namespace "+ns, tb.inNamespace(ns), func(o client.Object) bool { return o.GetNamespace() == ns })
			for _, v := range values {
				has := func(o client.Object) bool { return slices.Contains(valuesOf[o], v) }
				check("value "+v, tb.byValue(tb.index("f"), v, ""), has)
				if ns != "" {
					check("value "+v+" in "+ns, tb.byValue(tb.index("f"), v, ns), func(o client.Object) bool {
						return o.GetNamespace() == ns && has(o)
					})
				}
			}
		}
	}
}

func names(objs []client.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetNamespace() + "/" + o.GetName()
	}
	return out
}

func TestDiffValues(t *testing.T) {
	for _, tc := range []struct {
		prev, next, added, gone []string
	}{
		{nil, nil, nil, nil},
		{[]string{"a"}, []string{"a"}, nil, nil},
		{nil, []string{"a", "b"}, []string{"a", "b"}, nil},
		{[]string{"a", "b"}, nil, nil, []string{"a", "b"}},
		{[]string{"a", "c", "e"}, []string{"b", "c", "d"}, []string{"b", "d"}, []string{"a", "e"}},
	} {
		added, gone := diffValues(tc.prev, tc.next)
		if !slices.Equal(added, tc.added) || !slices.Equal(gone, tc.gone) {
			t.Errorf("diffValues(%v, %v) = %v, %v; want %v, %v", tc.prev, tc.next, added, gone, tc.added, tc.gone)
		}
	}
}
