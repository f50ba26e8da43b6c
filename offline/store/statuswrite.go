package store

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A status write stores the caller's status and nothing else of the
// caller's object (commit), and hands back the stored object. Copying the
// whole object both ways, as other writes do, made a status write cost two
// deep copies of the route's spec, which dwarfs its status; the functions
// here copy the status in and the metadata out, and the spec only when the
// caller's differs from the stored one.

// statusCopy returns a shallow copy of obj whose status is a deep copy:
// all commit reads of a status write's object is its status and
// resourceVersion, and the stored object must not share the status the
// caller may go on changing.
func (k *kind) statusCopy(obj client.Object) client.Object {
	cp := k.shallowCopy(obj)
	st := reflect.ValueOf(cp).Elem().FieldByIndex(k.statusField)
	deepCopyInto := st.Addr().MethodByName("DeepCopyInto")
	if !deepCopyInto.IsValid() {
		return obj.DeepCopyObject().(client.Object)
	}
	fresh := reflect.New(st.Type())
	deepCopyInto.Call([]reflect.Value{fresh})
	st.Set(fresh.Elem())
	return cp
}

// writeBackStatus makes obj what a status write stored (next), as
// writeBack does: the status is obj's own already (next holds a copy of
// it); the other top-level fields, metadata included, are next's (the
// stored ones, which a status write keeps apart from resourceVersion),
// copied only when obj's are not already the very same values, shallowly:
// a caller that read obj with client.UnsafeDisableDeepCopy shares them
// with the store and has nothing to copy.
func (k *kind) writeBackStatus(obj, next client.Object) {
	ov, nv := reflect.ValueOf(obj).Elem(), reflect.ValueOf(next).Elem()
	for _, i := range k.specFields {
		if !shallowSame(ov.Field(i), nv.Field(i)) {
			writeBack(obj, next)
			return
		}
	}
	m, ok := nv.FieldByName("ObjectMeta").Addr().Interface().(*metav1.ObjectMeta)
	if !ok {
		writeBack(obj, next)
		return
	}
	om := ov.FieldByName("ObjectMeta").Addr().Interface().(*metav1.ObjectMeta)
	if sameMetaBut(*om, *m) {
		*om = *m
	} else {
		*om = *m.DeepCopy()
	}
	clearTypeMeta(obj)
}

// sameMetaBut reports whether a is b, down to the first level of
// indirection, but for the fields a write sets (resourceVersion,
// generation, creationTimestamp): then a holder of a shares with the
// store all that it would share after taking b's values.
func sameMetaBut(a, b metav1.ObjectMeta) bool {
	a.ResourceVersion, a.Generation, a.CreationTimestamp = b.ResourceVersion, b.Generation, b.CreationTimestamp
	return shallowSame(reflect.ValueOf(a), reflect.ValueOf(b))
}

// shallowSame reports whether a and b, of one type, hold the same values
// down to the first level of indirection: equal scalars and strings, and
// slices, maps and pointers to the very same memory.
func shallowSame(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !shallowSame(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !shallowSame(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return a.Len() == b.Len() && a.IsNil() == b.IsNil() && (a.Len() == 0 || a.UnsafePointer() == b.UnsafePointer())
	case reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return a.UnsafePointer() == b.UnsafePointer()
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Elem().Type() == b.Elem().Type() && shallowSame(a.Elem(), b.Elem())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	}
	return false
}
