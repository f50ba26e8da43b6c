package golden

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/controller"
)

// readAudit checks the contract of cache-like reads
// (client.UnsafeDisableDeepCopy, see controller.CachedRead): what they
// return shares memory with the stored object, so nothing may change it in
// place. For every object such a read returns, it keeps a deep copy and a
// shallow twin (a copy of the top-level struct, which shares everything
// below it with the store but not the caller's top-level fields); after the
// run the twin must still equal the copy. A caller that replaces a
// top-level field before a write, as the status writers do, is fine; one
// that sorts a slice or sets a map entry or a nested field is caught.
type readAudit struct {
	mu    sync.Mutex // reconciles run concurrently
	reads []auditedRead
}

type auditedRead struct {
	twin, copy runtime.Object
}

func (a *readAudit) factory(s *runtime.Scheme, objs []client.Object, idx []controller.Index) (client.Client, error) {
	c, err := offline.IndexedStore(s, objs, idx)
	if err != nil {
		return nil, err
	}
	return &auditedClient{Client: c, audit: a}, nil
}

func (a *readAudit) record(obj runtime.Object) {
	twin := reflect.New(reflect.TypeOf(obj).Elem())
	twin.Elem().Set(reflect.ValueOf(obj).Elem())
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reads = append(a.reads, auditedRead{twin: twin.Interface().(runtime.Object), copy: obj.DeepCopyObject()})
}

func (a *readAudit) verify(t *testing.T) {
	t.Helper()
	for _, r := range a.reads {
		if !equality.Semantic.DeepEqual(r.copy, r.twin) {
			t.Errorf("an object returned by a cached read was changed in place (-read +now):\n%s", cmp.Diff(r.copy, r.twin))
			return
		}
	}
}

// auditedClient records the cached reads of the client it wraps.
type auditedClient struct {
	client.Client
	audit *readAudit
}

func (c *auditedClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	o := client.GetOptions{}
	o.ApplyOptions(opts)
	if o.UnsafeDisableDeepCopy != nil && *o.UnsafeDisableDeepCopy {
		c.audit.record(obj)
	}
	return nil
}

func (c *auditedClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	o := client.ListOptions{}
	o.ApplyOptions(opts)
	if o.UnsafeDisableDeepCopy == nil || !*o.UnsafeDisableDeepCopy {
		return nil
	}
	return meta.EachListItem(list, func(item runtime.Object) error {
		c.audit.record(item)
		return nil
	})
}

// TestCachedReadsAreNotModified runs every case with an audited store (see
// readAudit): output must not change, and nothing the reconcilers or
// Translate read without a copy may be changed in place.
func TestCachedReadsAreNotModified(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			for _, cm := range c.commands() {
				want := runCase(t, c, cm, defaultRunner)
				audit := &readAudit{}
				got := runCase(t, c, cm, storeRunner(audit.factory))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s with the audited store differs (-default +audited):\n%s", cm.File, diff)
				}
				audit.verify(t)
			}
		})
	}
}
