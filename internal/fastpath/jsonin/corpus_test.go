package jsonin

import (
	"bytes"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"

	"github.com/gwsim/gwsim/bench/synth"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
	"github.com/gwsim/gwsim/offline/scheme"
)

// TestGeneratedSetTakesTheFastPath: over the documents of a generated set
// of 1000 routes (every kind it holds, as written, before admission),
// FromJSON, FromMap and ObjectMap agree with the library and answer for at least 99%
// of the objects, so that the loader rarely pays for the library's
// decoding. (offline/load's TestTypedDecodeMatchesLibrary compares whole
// loads over every corpus.)
func TestGeneratedSetTakesTheFastPath(t *testing.T) {
	s := scheme.New()
	d := &Decoder{}
	var total, fromJSON, fromMap, objectMap int
	for _, f := range synth.Generate(synth.Standard(1000)).Files {
		for _, doc := range bytes.Split(f.Data, []byte("---\n")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			js, ok := yamlin.Convert(doc)
			if !ok {
				t.Fatalf("yamlin declined %q", doc)
			}
			var h struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			var obj map[string]any
			if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &h); err != nil {
				t.Fatal(err)
			}
			if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &obj); err != nil {
				t.Fatal(err)
			}
			gvk := schema.FromAPIVersionAndKind(h.APIVersion, h.Kind)
			newObj := func() any {
				o, err := s.New(gvk)
				if err != nil {
					t.Fatalf("%s: %v", gvk, err)
				}
				return o
			}
			total++
			if differentialJSON(t, d, js, newObj) {
				fromJSON++
			}
			if differential(t, d, obj, newObj) {
				fromMap++
			}
			if differentialMap(t, js) {
				objectMap++
			}
		}
	}
	t.Logf("of %d objects, FromJSON took %d, FromMap %d, ObjectMap %d", total, fromJSON, fromMap, objectMap)
	if least := total * 99 / 100; fromJSON < least || fromMap < least || objectMap < least {
		t.Errorf("of %d objects, FromJSON took %d, FromMap %d, ObjectMap %d; want 99%%", total, fromJSON, fromMap, objectMap)
	}
}
