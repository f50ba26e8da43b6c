package controller

import (
	"context"
	"fmt"

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
		{
			Kind:    "HTTPRoute",
			New:     func() client.Object { return &gwv1.HTTPRoute{} },
			NewList: func() client.ObjectList { return &gwv1.HTTPRouteList{} },
			Access: func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				r := o.(*gwv1.HTTPRoute)
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			Backends: func(o client.Object) []gwv1.BackendObjectReference { return httpBackends(o.(*gwv1.HTTPRoute)) },
			AddTo:    func(in *translate.Input, o client.Object) { in.HTTPRoutes = append(in.HTTPRoutes, o.(*gwv1.HTTPRoute)) },
		},
		{
			Kind:    "GRPCRoute",
			New:     func() client.Object { return &gwv1.GRPCRoute{} },
			NewList: func() client.ObjectList { return &gwv1.GRPCRouteList{} },
			Access: func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				r := o.(*gwv1.GRPCRoute)
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			Backends: func(o client.Object) []gwv1.BackendObjectReference { return grpcBackends(o.(*gwv1.GRPCRoute)) },
			AddTo:    func(in *translate.Input, o client.Object) { in.GRPCRoutes = append(in.GRPCRoutes, o.(*gwv1.GRPCRoute)) },
		},
		{
			Kind:    "TLSRoute",
			New:     func() client.Object { return &gwv1.TLSRoute{} },
			NewList: func() client.ObjectList { return &gwv1.TLSRouteList{} },
			Access: func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				r := o.(*gwv1.TLSRoute)
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			Backends: func(o client.Object) []gwv1.BackendObjectReference {
				var out []gwv1.BackendObjectReference
				for _, rule := range o.(*gwv1.TLSRoute).Spec.Rules {
					out = appendBackendRefs(out, rule.BackendRefs)
				}
				return out
			},
			AddTo: func(in *translate.Input, o client.Object) { in.TLSRoutes = append(in.TLSRoutes, o.(*gwv1.TLSRoute)) },
		},
		{
			Kind:    "TCPRoute",
			New:     func() client.Object { return &gwv1.TCPRoute{} },
			NewList: func() client.ObjectList { return &gwv1.TCPRouteList{} },
			Access: func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				r := o.(*gwv1.TCPRoute)
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			Backends: func(o client.Object) []gwv1.BackendObjectReference {
				var out []gwv1.BackendObjectReference
				for _, rule := range o.(*gwv1.TCPRoute).Spec.Rules {
					out = appendBackendRefs(out, rule.BackendRefs)
				}
				return out
			},
			AddTo: func(in *translate.Input, o client.Object) { in.TCPRoutes = append(in.TCPRoutes, o.(*gwv1.TCPRoute)) },
		},
		{
			Kind:    "UDPRoute",
			New:     func() client.Object { return &gwv1.UDPRoute{} },
			NewList: func() client.ObjectList { return &gwv1.UDPRouteList{} },
			Access: func(o client.Object) (*gwv1.CommonRouteSpec, *gwv1.RouteStatus) {
				r := o.(*gwv1.UDPRoute)
				return &r.Spec.CommonRouteSpec, &r.Status.RouteStatus
			},
			Backends: func(o client.Object) []gwv1.BackendObjectReference {
				var out []gwv1.BackendObjectReference
				for _, rule := range o.(*gwv1.UDPRoute).Spec.Rules {
					out = appendBackendRefs(out, rule.BackendRefs)
				}
				return out
			},
			AddTo: func(in *translate.Input, o client.Object) { in.UDPRoutes = append(in.UDPRoutes, o.(*gwv1.UDPRoute)) },
		},
	}
}

func appendBackendRefs(out []gwv1.BackendObjectReference, refs []gwv1.BackendRef) []gwv1.BackendObjectReference {
	for _, ref := range refs {
		out = append(out, ref.BackendObjectReference)
	}
	return out
}

// httpBackends returns the backendRefs of every rule and the targets of
// requestMirror and externalAuth filters at rule and backendRef level: a
// filter target that was not gathered would be reported as missing.
func httpBackends(r *gwv1.HTTPRoute) []gwv1.BackendObjectReference {
	var out []gwv1.BackendObjectReference
	mirrors := func(fs []gwv1.HTTPRouteFilter) {
		for _, f := range fs {
			if f.RequestMirror != nil {
				out = append(out, f.RequestMirror.BackendRef)
			}
			if f.ExternalAuth != nil {
				out = append(out, f.ExternalAuth.BackendRef)
			}
		}
	}
	for _, rule := range r.Spec.Rules {
		mirrors(rule.Filters)
		for _, ref := range rule.BackendRefs {
			out = append(out, ref.BackendObjectReference)
			mirrors(ref.Filters)
		}
	}
	return out
}

// grpcBackends is httpBackends for GRPCRoute, whose filters are a type of
// their own.
func grpcBackends(r *gwv1.GRPCRoute) []gwv1.BackendObjectReference {
	var out []gwv1.BackendObjectReference
	mirrors := func(fs []gwv1.GRPCRouteFilter) {
		for _, f := range fs {
			if f.RequestMirror != nil {
				out = append(out, f.RequestMirror.BackendRef)
			}
		}
	}
	for _, rule := range r.Spec.Rules {
		mirrors(rule.Filters)
		for _, ref := range rule.BackendRefs {
			out = append(out, ref.BackendObjectReference)
			mirrors(ref.Filters)
		}
	}
	return out
}

// ListObjects lists objects into list and returns its items as
// client.Objects pointing into the list.
func ListObjects(ctx context.Context, c client.Reader, list client.ObjectList, opts ...client.ListOption) ([]client.Object, error) {
	if err := c.List(ctx, list, opts...); err != nil {
		return nil, err
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
