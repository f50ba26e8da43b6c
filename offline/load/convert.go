package load

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1alpha2 "sigs.k8s.io/gateway-api/apis/v1alpha2"
	gwv1alpha3 "sigs.k8s.io/gateway-api/apis/v1alpha3"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"
)

// toV1 converts older Gateway API versions to v1, the only version translate
// reads. Most older types are Go definitions over the v1 struct, so a
// pointer conversion is exact. The v1alpha2 TCPRoute, TLSRoute and UDPRoute
// are separate structs; they go through JSON, and lost lists the field paths
// that v1 could not hold. Other objects are returned unchanged.
func toV1(obj client.Object) (out client.Object, lost []string) {
	switch o := obj.(type) {
	case *gwv1beta1.Gateway:
		return withV1Kind((*gwv1.Gateway)(o), "Gateway"), nil
	case *gwv1beta1.GatewayClass:
		return withV1Kind((*gwv1.GatewayClass)(o), "GatewayClass"), nil
	case *gwv1beta1.HTTPRoute:
		return withV1Kind((*gwv1.HTTPRoute)(o), "HTTPRoute"), nil
	case *gwv1beta1.ReferenceGrant:
		return withV1Kind((*gwv1.ReferenceGrant)(o), "ReferenceGrant"), nil
	case *gwv1alpha2.GRPCRoute:
		return withV1Kind((*gwv1.GRPCRoute)(o), "GRPCRoute"), nil
	case *gwv1alpha2.ReferenceGrant:
		return withV1Kind((*gwv1.ReferenceGrant)(o), "ReferenceGrant"), nil
	case *gwv1alpha3.TLSRoute:
		return withV1Kind((*gwv1.TLSRoute)(o), "TLSRoute"), nil
	case *gwv1alpha3.BackendTLSPolicy:
		return withV1Kind((*gwv1.BackendTLSPolicy)(o), "BackendTLSPolicy"), nil
	case *gwv1alpha2.TCPRoute:
		return viaJSON(o, &gwv1.TCPRoute{}, "TCPRoute")
	case *gwv1alpha2.TLSRoute:
		return viaJSON(o, &gwv1.TLSRoute{}, "TLSRoute")
	case *gwv1alpha2.UDPRoute:
		return viaJSON(o, &gwv1.UDPRoute{}, "UDPRoute")
	}
	return obj, nil
}

func withV1Kind(obj client.Object, kind string) client.Object {
	obj.GetObjectKind().SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind(kind))
	return obj
}

// viaJSON copies src into dst through JSON and reports what did not
// survive, comparing both as generic JSON.
func viaJSON(src, dst client.Object, kind string) (client.Object, []string) {
	withV1Kind(src, kind)
	before, err := json.Marshal(src)
	if err != nil {
		panic(fmt.Sprintf("bug: marshalling a decoded %s: %v", kind, err))
	}
	if err := json.Unmarshal(before, dst); err != nil {
		// The v1 fields have the types of the v1alpha2 ones; a mismatch is
		// a change in gateway-api that this conversion must learn about.
		panic(fmt.Sprintf("bug: converting %s to v1: %v", kind, err))
	}
	withV1Kind(dst, kind)
	after, err := json.Marshal(dst)
	if err != nil {
		panic(fmt.Sprintf("bug: marshalling a converted %s: %v", kind, err))
	}
	var a, b any
	_ = json.Unmarshal(before, &a)
	_ = json.Unmarshal(after, &b)
	return dst, lostPaths("", a, b)
}

// lostPaths lists, sorted, the paths whose value in before is missing or
// different in after, descending into objects and equally long arrays.
func lostPaths(path string, before, after any) []string {
	if reflect.DeepEqual(before, after) {
		return nil
	}
	switch bv := before.(type) {
	case map[string]any:
		av, ok := after.(map[string]any)
		if !ok {
			break
		}
		var out []string
		for k, v := range bv {
			out = append(out, lostPaths(joinPath(path, k), v, av[k])...)
		}
		slices.Sort(out)
		return out
	case []any:
		av, ok := after.([]any)
		if !ok || len(av) != len(bv) {
			break
		}
		var out []string
		for i := range bv {
			out = append(out, lostPaths(fmt.Sprintf("%s[%d]", path, i), bv[i], av[i])...)
		}
		return out
	}
	return []string{path}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
