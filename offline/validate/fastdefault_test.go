package validate

import (
	"reflect"
	"testing"

	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// TestFastDefaultMatchesLibrary checks Validator.Default's defaulting
// against the library's structuraldefaulting.Default on every Gateway API
// object of the corpora of TestFastAdmitMatchesLibrary and on all their
// mutants (defaulting alone is cheap), under both channels; with -short a
// tenth of the mutants, under the standard channel.
func TestFastDefaultMatchesLibrary(t *testing.T) {
	var objs []corpusObject
	for _, load := range []func(testing.TB) []corpusObject{goldenObjects, exampleObjects, conformanceObjects, synthObjects} {
		objs = append(objs, load(t)...)
	}
	stride, validators := 1, []*Validator{New(Standard), New(Experimental)}
	if testing.Short() {
		stride, validators = 10, validators[:1]
	}
	all := append(objs, mutants(objs, map[string]bool{}, stride)...)
	checked := 0
	for _, o := range all {
		for _, v := range validators {
			c, err := v.compiled(o.gvk)
			if err != nil {
				continue
			}
			checked++
			compareDefaults(t, c, o.obj, o.where)
		}
	}
	t.Logf("%d objects and mutants of %d objects checked", checked, len(objs))
}

// compareDefaults defaults copies of obj both ways and fails t when they
// differ.
func compareDefaults(t testing.TB, c *compiled, obj map[string]any, where string) {
	t.Helper()
	got := admission.CopyJSONValue(obj)
	want := admission.CopyJSONValue(obj)
	admission.ApplyDefaults(got, c.defaults)
	structuraldefaulting.Default(want, c.structural)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: defaulted objects differ\n got %v\nwant %v", where, got, want)
	}
}
