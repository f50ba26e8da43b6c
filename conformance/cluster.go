package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/defaulting"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/translate"
)

// Cluster is what the upstream suite takes for a cluster: a client.Client
// over gwsim's offline store, behind which gwsim's own reconcilers run to
// fixpoint, as a live controller would have by the time the suite polls.
//
// It plays four parts the suite expects of a cluster:
//   - the API server: the suite's Applier sends unstructured objects, which
//     are converted to the typed objects the store holds (and back for reads
//     into unstructured); every object written gets the CRD defaults of the
//     experimental channel (offline/defaulting, the loader's defaulting), as
//     the API server defaults what it stores; the store bumps generation on
//     spec changes through Update and Patch alike; the Gateway API CRDs are
//     there, annotated with the bundle version and channel the suite checks;
//   - the controller: every write marks the world dirty, and the next read
//     first runs the kubelet and then offline.Reconcile to fixpoint, so that
//     any status the suite reads is the settled one;
//   - the kubelet and endpoints controller (kubelet.go): each Deployment
//     gets Ready Pods and each Service with a selector an EndpointSlice;
//   - the network that gives a Gateway its address: Options.Addresses hands
//     out one loopback IP per Gateway (loopbackAddress), which the
//     round-tripper maps back and on which the network binds the sockets
//     the suite's own dialers reach (loopback.go), and
//     Options.AddressUsable refuses the static addresses of the suite's
//     unusable pool (UnusableStaticAddresses).
//
// Reconciling on read rather than on write lets the Applier create a whole
// manifest before the first pass, as a live controller's work queue would
// batch it; the suite cannot tell the difference, since it only sees status
// through reads.
type Cluster struct {
	store client.Client
	opts  offline.Options
	// defaults applies the CRD defaults to what is written. A patch is
	// defaulted as the object it is computed from (client.MergeFrom's
	// obj): the suite's patches are all merge patches of a whole object.
	defaults *defaulting.Defaulter

	mu    sync.Mutex
	dirty bool
	// world is the settled world World last read back, kept until the next
	// write: the data plane reads it for every request, and reading it
	// back runs a whole-world Translate.
	world *offline.Result
	// addresses are the Gateway addresses handed out so far; an address is
	// kept for the Gateway's lifetime in the harness (and reused if a
	// Gateway of the same name comes back), like a load balancer's.
	addresses map[types.NamespacedName]string
	// addressBase is the second octet of the cluster's loopback addresses.
	addressBase byte
	kubelet     kubelet
	// settled, when set, runs after a read that settled new writes,
	// outside c.mu: the network opens the sockets of the new world there
	// (Network.OpenLoopback), before the reader sees the Gateway's status.
	settled func(context.Context)
}

var _ client.Client = (*Cluster)(nil)

// ClusterScheme is gwsim's scheme plus the kinds a conformance run creates
// that gwsim itself never reads: Deployments (the echo backends) and
// CustomResourceDefinitions (for the suite's CRD version check).
func ClusterScheme() *runtime.Scheme {
	s := scheme.New()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, apiextensionsv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(fmt.Sprintf("bug: building the cluster scheme: %v", err))
		}
	}
	return s
}

// NewCluster returns a cluster whose controller owns GatewayClasses naming
// controllerName, holding the Gateway API CRDs and objs.
func NewCluster(controllerName string, objs ...client.Object) (*Cluster, error) {
	c := &Cluster{
		addresses:   map[types.NamespacedName]string{},
		addressBase: byte(1 + rand.IntN(254)),
		kubelet:     newKubelet(),
		dirty:       true,
		// The suite installs the experimental channel's CRDs.
		defaults: defaulting.New(validate.Experimental),
	}
	c.opts = offline.Options{
		Translate: translate.Options{
			ControllerNames: []string{controllerName},
			Now:             metav1.NewTime(time.Unix(0, 0).UTC()),
			Addresses:       c.gatewayAddresses,
			AddressUsable:   staticAddressUsable,
		},
		// One reconcile at a time: gatewayAddresses hands out addresses in
		// the order Gateways are first seen, which must not depend on
		// scheduling.
		Workers: 1,
	}
	if err := c.defaults.Default(objs...); err != nil {
		return nil, err
	}
	store, err := offline.IndexedStore(ClusterScheme(), append(gatewayAPICRDs(), objs...), controller.Indexes())
	if err != nil {
		return nil, err
	}
	c.store = store
	return c, nil
}

// gatewayAddresses gives each Gateway one IPv4 address of its own, in the
// order Gateways are first seen. It runs inside Reconcile, under c.mu.
func (c *Cluster) gatewayAddresses(gw types.NamespacedName) []gwv1.GatewayStatusAddress {
	addr, ok := c.addresses[gw]
	if !ok {
		addr = loopbackAddress(c.addressBase, len(c.addresses))
		c.addresses[gw] = addr
	}
	return []gwv1.GatewayStatusAddress{{Type: new(gwv1.IPAddressType), Value: addr}}
}

// loopbackAddress returns the n-th Gateway address of a cluster whose
// addresses start at 127.base.1: each Gateway gets an address of its own
// in 127.0.0.0/8, the only range the network binds (loopback.go), so that
// a test that dials a Gateway itself reaches this process and nothing else.
// base (1-254, drawn per cluster) keeps two runs on one host (two
// worktrees' `make test`) from binding the same address and port; a
// cluster cycles through 254*254 addresses.
func loopbackAddress(base byte, n int) string {
	const perOctet = 254
	n %= perOctet * perOctet
	return fmt.Sprintf("127.%d.%d.%d", base, n/perOctet+1, n%perOctet+1)
}

// UsableStaticAddresses is the suite's pool of static Gateway addresses
// the network can bind (suite.ConformanceOptions.UsableNetworkAddresses):
// one TEST-NET-3 address no Gateway is handed.
func UsableStaticAddresses() []gwv1.GatewaySpecAddress {
	return []gwv1.GatewaySpecAddress{{Type: new(gwv1.IPAddressType), Value: "203.0.113.253"}}
}

// UnusableStaticAddresses is the suite's pool of static Gateway addresses
// the network refuses (suite.ConformanceOptions.UnusableNetworkAddresses),
// as if another host held them.
func UnusableStaticAddresses() []gwv1.GatewaySpecAddress {
	return []gwv1.GatewaySpecAddress{{Type: new(gwv1.IPAddressType), Value: "203.0.113.254"}}
}

// staticAddressUsable is the network's answer to a Gateway that requests a
// static address: every address is usable but those of the unusable pool.
func staticAddressUsable(_ types.NamespacedName, addr gwv1.GatewaySpecAddress) bool {
	return !slices.ContainsFunc(UnusableStaticAddresses(), func(u gwv1.GatewaySpecAddress) bool { return u.Value == addr.Value })
}

// settle brings the world up to date after writes: the kubelet first (the
// controller reads EndpointSlices), then gwsim's reconcilers to fixpoint.
// The caller holds c.mu.
func (c *Cluster) settle(ctx context.Context) error {
	if !c.dirty {
		return nil
	}
	if err := c.kubelet.sync(ctx, c.store); err != nil {
		return fmt.Errorf("kubelet: %w", err)
	}
	if _, err := offline.Reconcile(ctx, c.store, nil, c.opts); err != nil {
		return fmt.Errorf("reconciling: %w", err)
	}
	c.dirty = false
	return nil
}

// World is the settled world as the data plane sees it: Output.IR is what
// requests are evaluated against. The same Result is returned until the
// next write; callers must not modify it.
func (c *Cluster) World(ctx context.Context) (*offline.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.world != nil {
		return c.world, nil
	}
	if err := c.settle(ctx); err != nil {
		return nil, err
	}
	w, err := offline.ReadWorld(ctx, c.store, nil, c.opts)
	if err != nil {
		return nil, err
	}
	c.world = w
	return w, nil
}

// read runs fn against the store after settling.
func (c *Cluster) read(ctx context.Context, fn func() error) error {
	c.mu.Lock()
	wasDirty, hook := c.dirty, c.settled
	err := c.settle(ctx)
	if err == nil {
		err = fn()
	}
	c.mu.Unlock()
	if wasDirty && hook != nil {
		hook(ctx)
	}
	return err
}

// onSettle sets the function that runs after a read that settled new
// writes (nil: none).
func (c *Cluster) onSettle(fn func(context.Context)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.settled = fn
}

// write runs fn against the store and marks the world dirty.
func (c *Cluster) write(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dirty, c.world = true, nil
	return fn()
}

func (c *Cluster) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	return c.read(ctx, func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			return c.store.Get(ctx, key, typed, opts...)
		})
	})
}

func (c *Cluster) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return c.read(ctx, func() error {
		return listViaTyped(c.store.Scheme(), list, func(typed client.ObjectList) error {
			return c.store.List(ctx, typed, opts...)
		})
	})
}

func (c *Cluster) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	return c.write(func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			if err := c.defaults.Default(typed); err != nil {
				return err
			}
			return c.store.Create(ctx, typed, opts...)
		})
	})
}

func (c *Cluster) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.write(func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			if err := c.defaults.Default(typed); err != nil {
				return err
			}
			return c.store.Update(ctx, typed, opts...)
		})
	})
}

func (c *Cluster) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.write(func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			if err := c.defaults.Default(typed); err != nil {
				return err
			}
			return c.store.Patch(ctx, typed, patch, opts...)
		})
	})
}

func (c *Cluster) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	return c.write(func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			return c.store.Delete(ctx, typed, opts...)
		})
	})
}

func (c *Cluster) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	return c.write(func() error {
		return viaTyped(c.store.Scheme(), obj, func(typed client.Object) error {
			return c.store.DeleteAllOf(ctx, typed, opts...)
		})
	})
}

func (c *Cluster) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	return c.write(func() error { return c.store.Apply(ctx, obj, opts...) })
}

func (c *Cluster) Status() client.SubResourceWriter { return c.SubResource("status") }

func (c *Cluster) SubResource(name string) client.SubResourceClient {
	return &clusterSubResource{c: c, inner: c.store.SubResource(name)}
}

func (c *Cluster) Scheme() *runtime.Scheme { return c.store.Scheme() }

func (c *Cluster) RESTMapper() meta.RESTMapper { return c.store.RESTMapper() }

func (c *Cluster) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return c.store.GroupVersionKindFor(obj)
}

func (c *Cluster) IsObjectNamespaced(obj runtime.Object) (bool, error) {
	return c.store.IsObjectNamespaced(obj)
}

// clusterSubResource routes status writes (the suite's own, for example
// when it clears a Gateway's status) through the same dirty marking.
type clusterSubResource struct {
	c     *Cluster
	inner client.SubResourceClient
}

func (s *clusterSubResource) Get(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceGetOption) error {
	return s.c.read(ctx, func() error { return s.inner.Get(ctx, obj, sub, opts...) })
}

func (s *clusterSubResource) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	return s.c.write(func() error { return s.inner.Create(ctx, obj, sub, opts...) })
}

func (s *clusterSubResource) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.c.write(func() error {
		return viaTyped(s.c.store.Scheme(), obj, func(typed client.Object) error { return s.inner.Update(ctx, typed, opts...) })
	})
}

func (s *clusterSubResource) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.write(func() error {
		return viaTyped(s.c.store.Scheme(), obj, func(typed client.Object) error { return s.inner.Patch(ctx, typed, patch, opts...) })
	})
}

func (s *clusterSubResource) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	return s.c.write(func() error { return s.inner.Apply(ctx, obj, opts...) })
}

// viaTyped runs fn with obj as the typed object the store holds: an
// unstructured obj is converted to its scheme type first and the result
// (resourceVersion, generation, status) converted back into it.
func viaTyped(s *runtime.Scheme, obj client.Object, fn func(client.Object) error) error {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fn(obj)
	}
	gvk := u.GroupVersionKind()
	typed, err := s.New(gvk)
	if err != nil {
		return fmt.Errorf("cluster: %s is not a kind the cluster knows: %w", gvk, err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
		return fmt.Errorf("cluster: converting %s %s/%s: %w", gvk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	to := typed.(client.Object)
	if err := fn(to); err != nil {
		return err
	}
	back, err := runtime.DefaultUnstructuredConverter.ToUnstructured(to)
	if err != nil {
		return err
	}
	u.Object = back
	u.SetGroupVersionKind(gvk)
	return nil
}

// listViaTyped is viaTyped for lists.
func listViaTyped(s *runtime.Scheme, list client.ObjectList, fn func(client.ObjectList) error) error {
	u, ok := list.(*unstructured.UnstructuredList)
	if !ok {
		return fn(list)
	}
	gvk := u.GroupVersionKind()
	typed, err := s.New(gvk)
	if err != nil {
		return fmt.Errorf("cluster: %s is not a kind the cluster knows: %w", gvk, err)
	}
	to := typed.(client.ObjectList)
	if err := fn(to); err != nil {
		return err
	}
	back, err := runtime.DefaultUnstructuredConverter.ToUnstructured(to)
	if err != nil {
		return err
	}
	items, _ := back["items"].([]any)
	u.Items = u.Items[:0]
	itemGVK := gvk
	itemGVK.Kind = strings.TrimSuffix(gvk.Kind, "List")
	for _, it := range items {
		m, _ := it.(map[string]any)
		item := unstructured.Unstructured{Object: m}
		item.SetGroupVersionKind(itemGVK)
		u.Items = append(u.Items, item)
	}
	return nil
}
