package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"
	gwxv1alpha1 "sigs.k8s.io/gateway-api/apisx/v1alpha1"
)

func build(t *testing.T, objs ...client.Object) *Store {
	t.Helper()
	b := NewBuilder(newTestScheme()).WithObjects(objs...)
	for _, ix := range testIndexes() {
		b = b.WithIndex(ix.obj, ix.field, ix.fn)
	}
	s, err := b.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

func TestBuildErrors(t *testing.T) {
	noName := route("infra", "", nil, nil)
	for _, tc := range []struct {
		name    string
		builder *Builder
		want    string
	}{
		{"no scheme", NewBuilder(nil), "no scheme"},
		{"duplicate index", NewBuilder(newTestScheme()).
			WithIndex(&gwv1.HTTPRoute{}, "f", hostnames).WithIndex(&gwv1.HTTPRoute{}, "f", hostnames),
			"field f for GroupVersionKind gateway.networking.k8s.io/v1, Kind=HTTPRoute is already indexed"},
		{"index on kind outside the scheme", NewBuilder(newTestScheme()).
			WithIndex(&appsv1.Deployment{}, "f", hostnames), `index "f": no kind is registered`},
		{"index without function", NewBuilder(newTestScheme()).
			WithIndex(&gwv1.HTTPRoute{}, "f", nil), "no index function"},
		{"duplicate object", NewBuilder(newTestScheme()).
			WithObjects(route("infra", "r", nil, nil), route("infra", "r", nil, nil)), `"r" already exists`},
		{"object without name", NewBuilder(newTestScheme()).WithObjects(noName), "has no name"},
		{"unstructured object", NewBuilder(newTestScheme()).WithObjects(&unstructured.Unstructured{}), "is not supported"},
		{"nil object", NewBuilder(newTestScheme()).WithObjects((*gwv1.HTTPRoute)(nil)), "nil *v1.HTTPRoute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.builder.Build()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build() error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestBuildDoesNotModifyInput(t *testing.T) {
	in := seedObjects()
	want := seedObjects()
	build(t, in...)
	if d := cmp.Diff(want, in); d != "" {
		t.Errorf("Build modified its input (-before +after):\n%s", d)
	}
}

func TestGeneration(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		write func(c client.Client, r *gwv1.HTTPRoute) error
		want  int64
	}{
		{"spec update bumps", func(c client.Client, r *gwv1.HTTPRoute) error {
			r.Spec.Hostnames = append(r.Spec.Hostnames, "x.example.com")
			return c.Update(ctx, r)
		}, 2},
		{"metadata update keeps", func(c client.Client, r *gwv1.HTTPRoute) error {
			r.Labels = map[string]string{"new": "label"}
			return c.Update(ctx, r)
		}, 1},
		{"caller's generation is ignored", func(c client.Client, r *gwv1.HTTPRoute) error {
			r.Generation = 9
			return c.Update(ctx, r)
		}, 1},
		{"status update keeps", func(c client.Client, r *gwv1.HTTPRoute) error {
			r.Status.RouteStatus = acceptedStatus("gw")
			return c.Status().Update(ctx, r)
		}, 1},
		{"status change through Update keeps", func(c client.Client, r *gwv1.HTTPRoute) error {
			r.Status.RouteStatus = acceptedStatus("gw")
			return c.Update(ctx, r)
		}, 1},
		{"spec patch bumps", func(c client.Client, r *gwv1.HTTPRoute) error {
			return c.Patch(ctx, r, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"hostnames":["p.example.com"]}}`)))
		}, 2},
		{"empty patch keeps", func(c client.Client, r *gwv1.HTTPRoute) error {
			return c.Patch(ctx, r, client.RawPatch(types.MergePatchType, []byte(`{}`)))
		}, 1},
		{"spec in status patch keeps", func(c client.Client, r *gwv1.HTTPRoute) error {
			return c.Status().Patch(ctx, r, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"hostnames":["p.example.com"]}}`)))
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := route("infra", "r", nil, []string{"gw"}, "a.example.com")
			start.Generation = 0 // the store sets 1
			s := build(t, start)
			r := &gwv1.HTTPRoute{}
			if err := s.Get(ctx, client.ObjectKey{Namespace: "infra", Name: "r"}, r); err != nil {
				t.Fatal(err)
			}
			if r.Generation != 1 {
				t.Fatalf("initial generation = %d, want 1", r.Generation)
			}
			if err := tc.write(s, r); err != nil {
				t.Fatal(err)
			}
			if r.Generation != tc.want {
				t.Errorf("generation written back = %d, want %d", r.Generation, tc.want)
			}
			stored := &gwv1.HTTPRoute{}
			if err := s.Get(ctx, client.ObjectKeyFromObject(r), stored); err != nil {
				t.Fatal(err)
			}
			if stored.Generation != tc.want {
				t.Errorf("stored generation = %d, want %d", stored.Generation, tc.want)
			}
		})
	}
}

func TestCreateSetsGeneration(t *testing.T) {
	ctx := context.Background()
	s := build(t)
	for _, tc := range []struct {
		given, want int64
	}{{0, 1}, {4, 4}} {
		r := route("infra", "r", nil, nil)
		r.Name += string(rune('a' + tc.given))
		r.Generation = tc.given
		if err := s.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		if r.Generation != tc.want {
			t.Errorf("Create with generation %d: got %d, want %d", tc.given, r.Generation, tc.want)
		}
	}
}

// TestCreationTimestamp checks the store's clock: Create sets
// creationTimestamp, whatever the caller sent, later than every initial
// object's and than the previous Create's, one second apart; Update keeps
// the stored one.
func TestCreationTimestamp(t *testing.T) {
	ctx := context.Background()
	initial := route("infra", "initial", nil, nil)
	initial.CreationTimestamp = metav1.NewTime(time.Date(2024, 5, 1, 10, 0, 0, 500, time.UTC))
	s := build(t, initial)
	var got []time.Time
	for _, name := range []string{"a", "b"} {
		r := route("infra", name, nil, nil)
		r.CreationTimestamp = metav1.NewTime(time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC))
		if err := s.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		stored := &gwv1.HTTPRoute{}
		if err := s.Get(ctx, client.ObjectKeyFromObject(r), stored); err != nil {
			t.Fatal(err)
		}
		if !stored.CreationTimestamp.Equal(&r.CreationTimestamp) {
			t.Errorf("Create wrote back %v, stored %v", r.CreationTimestamp, stored.CreationTimestamp)
		}
		got = append(got, stored.CreationTimestamp.Time)
	}
	want := []time.Time{time.Date(2024, 5, 1, 10, 0, 1, 0, time.UTC), time.Date(2024, 5, 1, 10, 0, 2, 0, time.UTC)}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("creation timestamps (-want +got):\n%s", d)
	}
	r := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, types.NamespacedName{Namespace: "infra", Name: "a"}, r); err != nil {
		t.Fatal(err)
	}
	r.CreationTimestamp = metav1.Time{}
	if err := s.Update(ctx, r); err != nil {
		t.Fatal(err)
	}
	if !r.CreationTimestamp.Time.Equal(want[0]) {
		t.Errorf("after Update: creationTimestamp %v, want %v kept", r.CreationTimestamp, want[0])
	}
	empty := build(t)
	first := route("infra", "first", nil, nil)
	if err := empty.Create(ctx, first); err != nil {
		t.Fatal(err)
	}
	if want := time.Unix(creationEpoch+1, 0); !first.CreationTimestamp.Time.Equal(want) {
		t.Errorf("first Create in an empty store: %v, want %v", first.CreationTimestamp, want)
	}
}

func TestReadsAreCopies(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r-status"}
	got := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	got.Labels["team"] = "changed"
	got.Status.Parents[0].Conditions[0].Reason = "changed"
	list := &gwv1.HTTPRouteList{}
	if err := s.List(ctx, list, client.InNamespace("infra")); err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		list.Items[i].Spec.Hostnames[0] = "changed"
	}
	again := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, again); err != nil {
		t.Fatal(err)
	}
	if again.Labels["team"] != "a" || again.Status.Parents[0].Conditions[0].Reason != "Accepted" ||
		again.Spec.Hostnames[0] != "status.example.com" {
		t.Errorf("changing a returned object changed the store: %+v", again)
	}
}

func TestUnsupported(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	r := route("infra", "r1", nil, nil)
	for _, tc := range []struct {
		name        string
		call        func() error
		unsupported bool // wraps errors.ErrUnsupported
		want        string
	}{
		{"apply", func() error { return s.Apply(ctx, nil) }, true, "server-side apply is not supported by the offline store"},
		{"status apply", func() error { return s.Status().Apply(ctx, nil) }, true, "server-side apply"},
		{"apply patch", func() error { return s.Patch(ctx, r, client.RawPatch(types.ApplyPatchType, []byte(`{}`))) }, true, "server-side apply"},
		{"scale update", func() error { return s.SubResource("scale").Update(ctx, r) }, true, `subresource "scale"`},
		{"scale patch", func() error { return s.SubResource("scale").Patch(ctx, r, client.MergeFrom(r)) }, true, `subresource "scale"`},
		{"status get", func() error { return s.Status().(client.SubResourceClient).Get(ctx, r, r) }, true, `get of subresource "status"`},
		{"status create", func() error { return s.Status().Create(ctx, r, r) }, true, `create of subresource "status"`},
		{"unknown patch type", func() error { return s.Patch(ctx, r, client.RawPatch("application/nonsense", []byte(`{}`))) }, false, "PatchType is not supported"},
		{"unstructured get", func() error {
			u := &unstructured.Unstructured{}
			u.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("HTTPRoute"))
			return s.Get(ctx, client.ObjectKey{Namespace: "infra", Name: "r1"}, u)
		}, false, "is not supported; use the typed object"},
		{"unstructured list", func() error {
			u := &unstructured.UnstructuredList{}
			u.SetGroupVersionKind(gwv1.SchemeGroupVersion.WithKind("HTTPRouteList"))
			return s.List(ctx, u)
		}, false, "is not supported; use the typed object"},
		{"metadata-only list", func() error { return s.List(ctx, &metav1.PartialObjectMetadataList{}) }, false, "is not supported"},
		{"kind outside the scheme", func() error { return s.Create(ctx, &appsv1.Deployment{}) }, false, "no kind is registered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
			if got := errors.Is(err, errors.ErrUnsupported); got != tc.unsupported {
				t.Errorf("errors.Is(err, errors.ErrUnsupported) = %v, want %v", got, tc.unsupported)
			}
		})
	}
}

func TestRESTMapperAndScope(t *testing.T) {
	s := build(t)
	for _, tc := range []struct {
		obj        client.Object
		namespaced bool
	}{
		{&gwv1.HTTPRoute{}, true},
		{&gwv1.Gateway{}, true},
		{&gwv1.GatewayClass{}, false},
		{&gwv1beta1.GatewayClass{}, false},
		{&gwv1beta1.ReferenceGrant{}, true},
		{&gwxv1alpha1.XMesh{}, false},
		{&gwxv1alpha1.XBackendTrafficPolicy{}, true},
		{&corev1.Namespace{}, false},
		{&corev1.Node{}, false},
		{&corev1.PersistentVolume{}, false},
		{&corev1.Service{}, true},
		{&corev1.Secret{}, true},
	} {
		gvk, err := s.GroupVersionKindFor(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.IsObjectNamespaced(tc.obj)
		if err != nil || got != tc.namespaced {
			t.Errorf("IsObjectNamespaced(%s) = %v, %v; want %v", gvk, got, err, tc.namespaced)
		}
		m, err := s.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("RESTMapping(%s): %v", gvk, err)
		}
		if gotScope := m.Scope.Name() == meta.RESTScopeNameNamespace; gotScope != tc.namespaced {
			t.Errorf("RESTMapping(%s) namespaced = %v, want %v", gvk, gotScope, tc.namespaced)
		}
	}
	m, err := s.RESTMapper().RESTMapping(schema.GroupKind{Group: gwv1.GroupName, Kind: "HTTPRoute"})
	if err != nil {
		t.Fatal(err)
	}
	if m.GroupVersionKind.Version != "v1" || m.Resource.Resource != "httproutes" {
		t.Errorf("unversioned HTTPRoute mapping = %s %s, want v1 httproutes", m.GroupVersionKind, m.Resource)
	}
}

// TestUnsafeDisableDeepCopy checks the cache-like shallow reads: the values
// are those stored, TypeMeta is cleared on what the caller gets, and
// replacing a top-level field of a returned object, as a status writer
// does before Update, leaves the store alone.
func TestUnsafeDisableDeepCopy(t *testing.T) {
	ctx := context.Background()
	s := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r-status"}
	deep := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, deep); err != nil {
		t.Fatal(err)
	}
	shallow := &gwv1.HTTPRoute{TypeMeta: metav1.TypeMeta{Kind: "HTTPRoute"}}
	if err := s.Get(ctx, key, shallow, client.UnsafeDisableDeepCopy); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(deep, shallow); diff != "" {
		t.Errorf("shallow Get differs from deep Get (-deep +shallow):\n%s", diff)
	}
	list := &gwv1.HTTPRouteList{}
	if err := s.List(ctx, list, client.InNamespace("infra"), client.UnsafeDisableDeepCopy); err != nil {
		t.Fatal(err)
	}
	deepList := &gwv1.HTTPRouteList{}
	if err := s.List(ctx, deepList, client.InNamespace("infra")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(deepList.Items, list.Items); diff != "" {
		t.Errorf("shallow List differs from deep List (-deep +shallow):\n%s", diff)
	}
	shallow.Status.Parents = nil
	shallow.Labels = map[string]string{"team": "changed"}
	again := &gwv1.HTTPRoute{}
	if err := s.Get(ctx, key, again); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(deep, again); diff != "" {
		t.Errorf("replacing fields of a shallow copy changed the store (-before +after):\n%s", diff)
	}
}

// TestSharedObjects checks WithSharedObjects: the input is not modified
// (resourceVersion and generation are set on the store's copy of the top
// level), reads return the same contents as with deep-copied input, and a
// write leaves the shared input alone.
func TestSharedObjects(t *testing.T) {
	ctx := context.Background()
	in := seedObjects()
	want := seedObjects()
	b := NewBuilder(newTestScheme()).WithSharedObjects(in...)
	for _, ix := range testIndexes() {
		b = b.WithIndex(ix.obj, ix.field, ix.fn)
	}
	shared, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, in); d != "" {
		t.Errorf("Build modified shared input (-before +after):\n%s", d)
	}
	copied := build(t, seedObjects()...)
	key := client.ObjectKey{Namespace: "infra", Name: "r-status"}
	got, ref := &gwv1.HTTPRoute{}, &gwv1.HTTPRoute{}
	if err := shared.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if err := copied.Get(ctx, key, ref); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ref, got); d != "" {
		t.Errorf("shared store reads differently (-copied +shared):\n%s", d)
	}
	got.Status.Parents = nil
	got.Spec.Hostnames = []gwv1.Hostname{"other.example.com"}
	if err := shared.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := shared.Status().Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, in); d != "" {
		t.Errorf("writes changed shared input (-before +after):\n%s", d)
	}
}

// TestBuildLargeKeepsInputOrder builds an input large enough for Build to
// add each kind on its own goroutine, with the kinds interleaved, and
// checks what must still follow the input order: resourceVersions number
// the stored objects in input order (one given in the input is kept), and
// the duplicate errors come in input order.
func TestBuildLargeKeepsInputOrder(t *testing.T) {
	var objs []client.Object
	want := map[string]string{} // kind/ns/name -> resourceVersion
	rv := 0
	for i := range parallelBuildMin + 500 {
		name := fmt.Sprintf("o-%04d", i)
		var obj client.Object
		switch i % 3 {
		case 0:
			obj = route("team", name, nil, []string{"infra/gw"}, "a.example.com")
		case 1:
			obj = service("team", name)
		default:
			obj = configMap("team", name, map[string]string{"k": name})
		}
		if i == 7 {
			obj.SetResourceVersion("given")
			want[fmt.Sprintf("%T/%s", obj, name)] = "given"
		} else {
			rv++
			want[fmt.Sprintf("%T/%s", obj, name)] = fmt.Sprint(rv)
		}
		objs = append(objs, obj)
	}
	s := build(t, objs...)
	got := map[string]string{}
	for _, list := range []client.ObjectList{&gwv1.HTTPRouteList{}, &corev1.ServiceList{}, &corev1.ConfigMapList{}} {
		if err := s.List(context.Background(), list); err != nil {
			t.Fatal(err)
		}
		if err := meta.EachListItem(list, func(o runtime.Object) error {
			obj := o.(client.Object)
			got[fmt.Sprintf("%T/%s", obj, obj.GetName())] = obj.GetResourceVersion()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("resourceVersions (-want +got):\n%s", d)
	}

	dups := append(slices.Clone(objs), service("team", "o-0001"), route("team", "o-0000", nil, nil))
	_, err := NewBuilder(newTestScheme()).WithObjects(dups...).Build()
	if err == nil {
		t.Fatal("Build of duplicates succeeded")
	}
	msg := err.Error()
	first, second := strings.Index(msg, `"o-0001" already exists`), strings.Index(msg, `"o-0000" already exists`)
	if first < 0 || second < first {
		t.Errorf("Build error = %q, want the duplicate Service's error before the duplicate HTTPRoute's", msg)
	}
}
