package offline

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	mcsv1alpha1 "sigs.k8s.io/mcs-api/pkg/apis/v1alpha1"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/translate"
)

// worldLists returns a new List of every kind translate.Input holds.
func worldLists() []func() client.ObjectList {
	lists := []func() client.ObjectList{
		func() client.ObjectList { return &gwv1.GatewayClassList{} },
		func() client.ObjectList { return &gwv1.GatewayList{} },
		func() client.ObjectList { return &gwv1.ListenerSetList{} },
		func() client.ObjectList { return &gwv1.BackendTLSPolicyList{} },
		func() client.ObjectList { return &gwv1.ReferenceGrantList{} },
		func() client.ObjectList { return &corev1.ServiceList{} },
		func() client.ObjectList { return &mcsv1alpha1.ServiceImportList{} },
		func() client.ObjectList { return &discoveryv1.EndpointSliceList{} },
		func() client.ObjectList { return &corev1.SecretList{} },
		func() client.ObjectList { return &corev1.ConfigMapList{} },
		func() client.ObjectList { return &corev1.NamespaceList{} },
	}
	for _, k := range controller.RouteKinds() {
		lists = append(lists, k.NewList)
	}
	return lists
}

// readBack lists every Input kind, and every other kind among objs, once
// through c. It returns all objects sorted by kind, namespace and name, and
// the Input they make up.
func readBack(ctx context.Context, c client.Client, objs []client.Object) ([]client.Object, translate.Input, error) {
	s := c.Scheme()
	var in translate.Input
	var groups []kindGroup
	listed := map[schema.GroupVersionKind]bool{}
	for _, newList := range worldLists() {
		list := newList()
		gvk, err := itemKind(s, list)
		if err != nil {
			return nil, in, err
		}
		listed[gvk] = true
		items, err := controller.ListObjects(ctx, c, list, controller.CachedRead)
		if err != nil {
			return nil, in, fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for _, o := range items {
			in.Add(o)
		}
		groups = append(groups, kindGroup{gvk.Kind, items})
	}
	seenTypes := map[reflect.Type]bool{}
	for _, o := range objs {
		t := reflect.TypeOf(o)
		if seenTypes[t] {
			continue
		}
		seenTypes[t] = true
		gvk, err := apiutil.GVKForObject(o, s)
		if err != nil || listed[gvk] {
			continue
		}
		listed[gvk] = true
		items, err := listKind(ctx, c, s, gvk)
		if err != nil {
			return nil, in, err
		}
		groups = append(groups, kindGroup{gvk.Kind, items})
	}
	return sortObjects(groups), in, nil
}

// kindGroup is one kind's objects as one List returned them.
type kindGroup struct {
	kind  string
	items []client.Object
}

// listKind lists a kind that Input does not hold (kept only so that
// Result.Objects holds everything that was loaded).
func listKind(ctx context.Context, c client.Client, s *runtime.Scheme, gvk schema.GroupVersionKind) ([]client.Object, error) {
	obj, err := s.New(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
	}
	list, ok := obj.(client.ObjectList)
	if !ok {
		return nil, fmt.Errorf("listing %s: %T is not a list", gvk.Kind, obj)
	}
	items, err := controller.ListObjects(ctx, c, list, controller.CachedRead)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
	}
	return items, nil
}

func itemKind(s *runtime.Scheme, list client.ObjectList) (schema.GroupVersionKind, error) {
	gvk, err := apiutil.GVKForObject(list, s)
	if err != nil {
		return gvk, err
	}
	gvk.Kind = gvk.Kind[:len(gvk.Kind)-len("List")]
	return gvk, nil
}

// sortObjects concatenates the groups ordered by kind, and each group's
// objects by namespace and name (a List usually returns them so already).
func sortObjects(groups []kindGroup) []client.Object {
	slices.SortStableFunc(groups, func(a, b kindGroup) int { return cmp.Compare(a.kind, b.kind) })
	byKey := func(a, b client.Object) int {
		return cmp.Or(cmp.Compare(a.GetNamespace(), b.GetNamespace()), cmp.Compare(a.GetName(), b.GetName()))
	}
	var out []client.Object
	for _, g := range groups {
		if !slices.IsSortedFunc(g.items, byKey) {
			slices.SortFunc(g.items, byKey)
		}
		out = append(out, g.items...)
	}
	return out
}
