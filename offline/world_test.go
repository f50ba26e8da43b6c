package offline

import (
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// TestWorldListsEveryKindTranslateReads fails when translate.Input holds
// a kind of object that the offline world does not list from the store:
// objects of that kind would never reach the translator, and every route
// using one would lose it (as Envoy Gateway's offline controller once
// never watched HTTPRouteFilter, and routes using one answered "route not
// found"). It also checks that each such kind is one the scheme, and so
// the store, holds, and that Input.Add takes it.
func TestWorldListsEveryKindTranslateReads(t *testing.T) {
	listed := map[reflect.Type]bool{}
	for _, newList := range worldLists() {
		items, ok := reflect.TypeOf(newList()).Elem().FieldByName("Items")
		if !ok {
			t.Fatalf("%T has no Items", newList())
		}
		listed[reflect.PointerTo(items.Type.Elem())] = true
	}
	s := scheme.New()
	input := reflect.TypeOf(translate.Input{})
	objectType := reflect.TypeOf((*client.Object)(nil)).Elem()
	kinds := 0
	for i := range input.NumField() {
		f := input.Field(i)
		if f.Type.Kind() != reflect.Slice || !f.Type.Elem().Implements(objectType) {
			continue
		}
		kinds++
		elem := f.Type.Elem()
		if !listed[elem] {
			t.Errorf("translate.Input.%s holds %s, which worldLists does not list: the translator would never see them", f.Name, elem)
		}
		obj := reflect.New(elem.Elem()).Interface().(client.Object)
		if gvks, _, err := s.ObjectKinds(obj); err != nil || len(gvks) == 0 {
			t.Errorf("translate.Input.%s holds %s, which the scheme does not know: the store cannot hold them", f.Name, elem)
		}
		var in translate.Input
		if !in.Add(obj) {
			t.Errorf("translate.Input.Add does not take %s (field %s)", elem, f.Name)
		}
	}
	if kinds < 15 {
		t.Fatalf("found only %d object kinds in translate.Input; the scan is broken", kinds)
	}
}
