package offline

import (
	"errors"
	"fmt"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/store"
)

// StoreFactory builds the client a run reads and writes through, holding
// objs and serving the field indexes idx. It must not modify objs.
type StoreFactory func(s *runtime.Scheme, objs []client.Object, idx []controller.Index) (client.Client, error)

var (
	_ StoreFactory = IndexedStore
	_ StoreFactory = FakeStore
)

// IndexedStore builds gwsim's own indexed store (offline/store). It
// shares the contents of objs rather than deep-copying them
// (WithSharedObjects): the objects of a run are not modified by anyone.
// Indexes that read no status are registered as such, so that status
// writes do not extract their values again.
func IndexedStore(s *runtime.Scheme, objs []client.Object, idx []controller.Index) (client.Client, error) {
	b := store.NewBuilder(s).WithSharedObjects(objs...)
	for _, i := range idx {
		if i.ReadsStatus {
			b = b.WithIndex(i.Object, i.Field, i.Extract)
		} else {
			b = b.WithSpecIndex(i.Object, i.Field, i.Extract)
		}
	}
	c, err := b.Build()
	if err != nil {
		return nil, err
	}
	return c, nil
}

// FakeStore builds controller-runtime's fake client with a status
// subresource for every Gateway API kind that has a status. Objects without
// a generation are stored with generation 1, as the apiserver does.
// Duplicate objects and anything else the fake builder would panic on are
// returned as errors.
func FakeStore(s *runtime.Scheme, objs []client.Object, idx []controller.Index) (c client.Client, err error) {
	if err := checkDuplicates(s, objs); err != nil {
		return nil, err
	}
	b := fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(
		&gwv1.GatewayClass{}, &gwv1.Gateway{}, &gwv1.ListenerSet{},
		&gwv1.HTTPRoute{}, &gwv1.GRPCRoute{}, &gwv1.TLSRoute{}, &gwv1.TCPRoute{}, &gwv1.UDPRoute{},
		&gwv1.BackendTLSPolicy{}, &egv1a1.Backend{},
		&egv1a1.BackendTrafficPolicy{}, &egv1a1.ClientTrafficPolicy{}, &egv1a1.SecurityPolicy{},
		&egv1a1.EnvoyExtensionPolicy{}, &egv1a1.EnvoyPatchPolicy{},
	)
	for _, o := range objs {
		// The builder sets resourceVersion on what it is given.
		o = o.DeepCopyObject().(client.Object)
		if o.GetGeneration() == 0 {
			// The apiserver (and IndexedStore) start generation at 1; the
			// fake client never sets it, and observedGeneration would differ.
			o.SetGeneration(1)
		}
		b = b.WithObjects(o)
	}
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("building fake client: %v", r)
		}
	}()
	for _, i := range idx {
		b = b.WithIndex(i.Object, i.Field, i.Extract)
	}
	return b.Build(), nil
}

// checkDuplicates reports every object whose kind, namespace and name an
// earlier object already has.
func checkDuplicates(s *runtime.Scheme, objs []client.Object) error {
	type key struct{ gvk, ns, name string }
	seen := map[key]bool{}
	var errs []error
	for _, o := range objs {
		gvk, err := apiutil.GVKForObject(o, s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		k := key{gvk.String(), o.GetNamespace(), o.GetName()}
		if seen[k] {
			errs = append(errs, fmt.Errorf("duplicate object %s %s/%s", gvk.Kind, o.GetNamespace(), o.GetName()))
		}
		seen[k] = true
	}
	return errors.Join(errs...)
}
