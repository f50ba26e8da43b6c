package translate

import (
	"reflect"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestDefaultedParentRef: status.parents echoes a parentRef as the API
// server stores it, group and kind defaulted, everything else as written.
// The conformance suite compares group and kind as non-nil pointers.
func TestDefaultedParentRef(t *testing.T) {
	group, kind := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway")
	tests := []struct {
		name    string
		in, out gwv1.ParentReference
	}{
		{"nil group and kind are defaulted, namespace stays nil",
			gwv1.ParentReference{Name: "gw", SectionName: ptr(gwv1.SectionName("http"))},
			gwv1.ParentReference{Group: &group, Kind: &kind, Name: "gw", SectionName: ptr(gwv1.SectionName("http"))}},
		{"namespace and port are echoed",
			gwv1.ParentReference{Namespace: ptr(gwv1.Namespace("infra")), Name: "gw", Port: ptr(gwv1.PortNumber(80))},
			gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: ptr(gwv1.Namespace("infra")), Name: "gw", Port: ptr(gwv1.PortNumber(80))}},
		{"spelled-out group and kind are kept",
			gwv1.ParentReference{Group: ptr(gwv1.Group("example.com")), Kind: ptr(gwv1.Kind("Mesh")), Name: "m"},
			gwv1.ParentReference{Group: ptr(gwv1.Group("example.com")), Kind: ptr(gwv1.Kind("Mesh")), Name: "m"}},
	}
	for _, tt := range tests {
		before := *tt.in.DeepCopy()
		if got := defaultedParentRef(tt.in); !reflect.DeepEqual(got, tt.out) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.out)
		}
		if !reflect.DeepEqual(before, tt.in) {
			t.Errorf("%s: input mutated", tt.name)
		}
	}
}
