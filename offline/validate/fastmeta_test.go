package validate

import (
	"reflect"
	"testing"

	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// TestObjectMetaMatchesLibrary checks objectMeta against the library's
// GetObjectMeta on the metadata of every object of the corpora and of
// their mutants (a tenth with -short), plus metadata the corpora lack (invalid UTF-8, nulls,
// other fields).
func TestObjectMetaMatchesLibrary(t *testing.T) {
	objs := corpusWithMutants(t)
	for _, meta := range []any{
		map[string]any{"name": "a\xffb"},
		map[string]any{"labels": map[string]any{"a\xff": "b"}},
		map[string]any{"labels": map[string]any{"a": nil}},
		map[string]any{"labels": nil},
		map[string]any{"labels": map[string]any{}},
		map[string]any{"name": nil},
		map[string]any{"uid": "x", "name": "n"},
		map[string]any{"Name": "n"},
		"metadata",
	} {
		objs = append(objs, corpusObject{obj: map[string]any{"metadata": meta}, where: "extra"})
	}
	fast := 0
	for _, o := range objs {
		gotMeta, gotFound, gotErr := admission.ObjectMeta(o.obj)
		wantMeta, wantFound, wantErr := schemaobjectmeta.GetObjectMeta(o.obj, false)
		if _, ok := admission.PlainObjectMeta(o.obj["metadata"]); ok {
			fast++
		}
		if !reflect.DeepEqual(gotMeta, wantMeta) || gotFound != wantFound || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: metadata %v: got %+v %v %v, want %+v %v %v", o.where, o.obj["metadata"], gotMeta, gotFound, gotErr, wantMeta, wantFound, wantErr)
		}
	}
	t.Logf("%d of %d read directly", fast, len(objs))
}

// corpusWithMutants is every object of the corpora and their mutants (a
// tenth of them with -short).
func corpusWithMutants(t testing.TB) []corpusObject {
	var objs []corpusObject
	for _, load := range []func(testing.TB) []corpusObject{goldenObjects, exampleObjects, conformanceObjects, synthObjects} {
		objs = append(objs, load(t)...)
	}
	stride := 1
	if testing.Short() {
		stride = 10
	}
	return append(objs, mutants(objs, map[string]bool{}, stride)...)
}
