package offline

import (
	"cmp"
	"context"
	"fmt"
	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
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
		func() client.ObjectList { return &egv1a1.BackendList{} },
		func() client.ObjectList { return &egv1a1.HTTPRouteFilterList{} },
		func() client.ObjectList { return &egv1a1.EnvoyProxyList{} },
		func() client.ObjectList { return &egv1a1.BackendTrafficPolicyList{} },
		func() client.ObjectList { return &egv1a1.ClientTrafficPolicyList{} },
		func() client.ObjectList { return &egv1a1.SecurityPolicyList{} },
		func() client.ObjectList { return &egv1a1.EnvoyExtensionPolicyList{} },
		func() client.ObjectList { return &egv1a1.EnvoyPatchPolicyList{} },
	}
	for _, k := range controller.RouteKinds() {
		lists = append(lists, k.NewList)
	}
	return lists
}

// readBack lists every Input kind, and every other kind of which others
// holds an object, once through c. It returns all objects sorted by kind,
// namespace and name, and the Input they make up.
func readBack(ctx context.Context, c client.Client, others []client.Object) ([]client.Object, translate.Input, error) {
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
		items, err := listWorld(ctx, c, list)
		if err != nil {
			return nil, in, fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for _, o := range items {
			in.Add(o)
		}
		groups = append(groups, kindGroup{gvk.Kind, items})
	}
	for _, o := range others {
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
	items, err := listWorld(ctx, c, list)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
	}
	return items, nil
}

// storedLister is a client that can hand out its stored objects
// themselves (offline/store.Store.StoredObjects).
type storedLister interface {
	StoredObjects(list client.ObjectList) ([]client.Object, error)
}

// listWorld lists every object of list's kind for the read-back. The world
// read back is kept until the CLI has printed it, so a store that can share
// its objects does: a List would add a copy of each object's top level.
func listWorld(ctx context.Context, c client.Client, list client.ObjectList) ([]client.Object, error) {
	if sl, ok := c.(storedLister); ok {
		return sl.StoredObjects(list)
	}
	return controller.ListObjects(ctx, c, list, controller.CachedRead)
}

// typesOf returns a new, empty object of each Go type among objs, in the
// order first met: what readBack needs of the input (which kinds to list
// beyond translate.Input's) without keeping the input's objects alive.
func typesOf(objs []client.Object) []client.Object {
	seen := map[reflect.Type]bool{}
	var out []client.Object
	for _, o := range objs {
		t := reflect.TypeOf(o)
		if seen[t] || t.Kind() != reflect.Pointer {
			continue
		}
		seen[t] = true
		if empty, ok := reflect.New(t.Elem()).Interface().(client.Object); ok {
			out = append(out, empty)
		}
	}
	return out
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
