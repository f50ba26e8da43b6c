package translate

import (
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestInputAddCoversEveryField checks that every []*T field of Input whose
// *T is an object is filled by Add, so that a kind added to Input cannot be
// forgotten here.
func TestInputAddCoversEveryField(t *testing.T) {
	v := reflect.ValueOf(Input{})
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Pointer {
			continue
		}
		obj, ok := reflect.New(f.Type.Elem().Elem()).Interface().(client.Object)
		if !ok {
			continue
		}
		var in Input
		if !in.Add(obj) {
			t.Errorf("Add does not take %T (field %s)", obj, f.Name)
			continue
		}
		if got := reflect.ValueOf(in).Field(i).Len(); got != 1 {
			t.Errorf("Add(%T) did not fill field %s", obj, f.Name)
		}
	}
	var in Input
	if in.Add(&struct{}{}) {
		t.Error("Add took an object of a kind Input does not hold")
	}
}
