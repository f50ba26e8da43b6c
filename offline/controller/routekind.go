package controller

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// RouteKind tells the code shared by every route kind how to read one kind:
// the index table, the Gateway reconciler and the route reconciler all go
// through it instead of holding one copy per kind.
type RouteKind struct {
	Kind    string
	New     func() client.Object
	NewList func() client.ObjectList
	// Access returns the route's common spec and a pointer to its status,
	// which callers may change in place.
	Access func(client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus)
	// Backends returns every backendRef of the route, requestMirror
	// filter targets included, in spec order.
	Backends func(client.Object) []gwv1.BackendObjectReference
	// AddTo appends the route to the slice of in that holds its kind.
	AddTo func(in *translate.Input, o client.Object)
}

// RouteKinds returns the route kinds gwsim reconciles, in the order a
// reconcile pass visits them.
func RouteKinds() []RouteKind {
	return []RouteKind{
		typedRouteKind[*gwv1.HTTPRoute]{
			kind:    "HTTPRoute",
			new:     func() *gwv1.HTTPRoute { return &gwv1.HTTPRoute{} },
			newList: func() client.ObjectList { return &gwv1.HTTPRouteList{} },
			access: func(r *gwv1.HTTPRoute) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			backends: translate.HTTPRouteBackendRefs,
			add:      func(in *translate.Input, r *gwv1.HTTPRoute) { in.HTTPRoutes = append(in.HTTPRoutes, r) },
		}.erase(),
		typedRouteKind[*gwv1.GRPCRoute]{
			kind:    "GRPCRoute",
			new:     func() *gwv1.GRPCRoute { return &gwv1.GRPCRoute{} },
			newList: func() client.ObjectList { return &gwv1.GRPCRouteList{} },
			access: func(r *gwv1.GRPCRoute) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			backends: translate.GRPCRouteBackendRefs,
			add:      func(in *translate.Input, r *gwv1.GRPCRoute) { in.GRPCRoutes = append(in.GRPCRoutes, r) },
		}.erase(),
		typedRouteKind[*gwv1.TLSRoute]{
			kind:    "TLSRoute",
			new:     func() *gwv1.TLSRoute { return &gwv1.TLSRoute{} },
			newList: func() client.ObjectList { return &gwv1.TLSRouteList{} },
			access: func(r *gwv1.TLSRoute) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			backends: func(r *gwv1.TLSRoute) []gwv1.BackendObjectReference {
				return translate.PlainBackendRefs(r.Spec.Rules, func(rule gwv1.TLSRouteRule) []gwv1.BackendRef { return rule.BackendRefs })
			},
			add: func(in *translate.Input, r *gwv1.TLSRoute) { in.TLSRoutes = append(in.TLSRoutes, r) },
		}.erase(),
		typedRouteKind[*gwv1.TCPRoute]{
			kind:    "TCPRoute",
			new:     func() *gwv1.TCPRoute { return &gwv1.TCPRoute{} },
			newList: func() client.ObjectList { return &gwv1.TCPRouteList{} },
			access: func(r *gwv1.TCPRoute) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			backends: func(r *gwv1.TCPRoute) []gwv1.BackendObjectReference {
				return translate.PlainBackendRefs(r.Spec.Rules, func(rule gwv1.TCPRouteRule) []gwv1.BackendRef { return rule.BackendRefs })
			},
			add: func(in *translate.Input, r *gwv1.TCPRoute) { in.TCPRoutes = append(in.TCPRoutes, r) },
		}.erase(),
		typedRouteKind[*gwv1.UDPRoute]{
			kind:    "UDPRoute",
			new:     func() *gwv1.UDPRoute { return &gwv1.UDPRoute{} },
			newList: func() client.ObjectList { return &gwv1.UDPRouteList{} },
			access: func(r *gwv1.UDPRoute) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			backends: func(r *gwv1.UDPRoute) []gwv1.BackendObjectReference {
				return translate.PlainBackendRefs(r.Spec.Rules, func(rule gwv1.UDPRouteRule) []gwv1.BackendRef { return rule.BackendRefs })
			},
			add: func(in *translate.Input, r *gwv1.UDPRoute) { in.UDPRoutes = append(in.UDPRoutes, r) },
		}.erase(),
	}
}

// typedRouteKind is a RouteKind written against the kind's own Go type, so
// that each entry of RouteKinds states only what differs between kinds and
// the type assertions live in erase alone.
type typedRouteKind[T client.Object] struct {
	kind     string
	new      func() T
	newList  func() client.ObjectList
	access   func(T) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus)
	backends func(T) []gwv1.BackendObjectReference
	add      func(*translate.Input, T)
}

func (t typedRouteKind[T]) erase() RouteKind {
	return RouteKind{
		Kind:     t.kind,
		New:      func() client.Object { return t.new() },
		NewList:  t.newList,
		Access:   func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) { return t.access(o.(T)) },
		Backends: func(o client.Object) []gwv1.BackendObjectReference { return t.backends(o.(T)) },
		AddTo:    func(in *translate.Input, o client.Object) { t.add(in, o.(T)) },
	}
}

// ListObjects lists objects into list and returns its items as
// client.Objects pointing into the list.
func ListObjects(ctx context.Context, c client.Reader, list client.ObjectList, opts ...client.ListOption) ([]client.Object, error) {
	if err := c.List(ctx, list, opts...); err != nil {
		return nil, err
	}
	itemsPtr, err := meta.GetItemsPtr(list)
	if err != nil {
		return nil, err
	}
	if items := reflect.ValueOf(itemsPtr).Elem(); items.Kind() == reflect.Slice && items.Type().Elem().Kind() == reflect.Struct {
		// A typed list: point into Items directly, without the
		// []runtime.Object that meta.ExtractList builds first.
		out := make([]client.Object, items.Len())
		for i := range out {
			o, ok := items.Index(i).Addr().Interface().(client.Object)
			if !ok {
				return nil, fmt.Errorf("list item %s is not a client.Object", items.Type().Elem())
			}
			out[i] = o
		}
		return out, nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	out := make([]client.Object, 0, len(items))
	for _, it := range items {
		o, ok := it.(client.Object)
		if !ok {
			return nil, fmt.Errorf("list item %T is not a client.Object", it)
		}
		out = append(out, o)
	}
	return out, nil
}
