package validate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
)

// FuzzFastAdmit compares the fast admission path, and the fast defaulting
// of --validate=false, with the library on arbitrary objects: kind picks the kind and version (among those of the
// seeds) and the channel, data is the object's JSON. Seeded with the
// golden inputs and a generated set.
func FuzzFastAdmit(f *testing.F) {
	var seeds []corpusObject
	seeds = append(seeds, synthObjects(f)...)
	seeds = append(seeds, goldenObjects(f)...)
	// The kinds and versions are those of the seeds, in a fixed order.
	index := map[schema.GroupVersionKind]int{}
	var kinds []schema.GroupVersionKind
	for _, o := range seeds {
		if _, ok := index[o.gvk]; !ok {
			index[o.gvk] = -1
			kinds = append(kinds, o.gvk)
		}
	}
	slices.SortFunc(kinds, func(a, b schema.GroupVersionKind) int { return strings.Compare(a.String(), b.String()) })
	for i, k := range kinds {
		index[k] = i
	}
	for i, o := range seeds {
		if i%7 != 0 {
			continue
		}
		js, err := json.Marshal(o.obj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(2*index[o.gvk]), js)
	}
	validators := []*Validator{New(Standard), New(Experimental)}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		var obj map[string]any
		if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &obj); err != nil || obj == nil {
			return
		}
		gvk := kinds[int(kind/2)%len(kinds)]
		c, err := validators[kind%2].compiled(gvk)
		if err != nil {
			return
		}
		compareDefaults(t, c, obj, gvk.Kind)
		compareAdmission(t, c, obj, gvk.Kind, nil)
	})
}
