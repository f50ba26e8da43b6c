package golden

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// TestSpecIndexesIgnoreStatus checks controller.Index.ReadsStatus, which
// lets the store skip the other indexes on status writes
// (store.Builder.WithSpecIndex): on every object of every case after the
// fixpoint, whose status the reconcilers wrote, each index that does not
// declare it reads status extracts the same values with the status
// cleared. That the check can tell is shown by the index that does read
// status, which must differ on some object.
func TestSpecIndexesIgnoreStatus(t *testing.T) {
	indexes := controller.Indexes()
	statusSeen := map[string]bool{}
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			loaded := load.Load(load.Options{Paths: []string{filepath.Join(c.Dir, inputDir)}})
			objs, _ := load.AssumeMissing(loaded.Objects, "gwsim.dev/gateway-controller")
			ctx := context.Background()
			c, err := offline.IndexedStore(scheme.New(), objs, indexes)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := offline.Reconcile(ctx, c, loaded.Sources, offline.Options{
				Translate: translate.Options{ControllerNames: []string{"gwsim.dev/gateway-controller"}}, OtherObjects: loaded.Others}); err != nil {
				t.Fatal(err)
			}
			for _, ix := range indexes {
				list, err := listOf(c.Scheme(), ix.Object)
				if err != nil {
					t.Fatal(err)
				}
				stored, err := controller.ListObjects(ctx, c, list)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range stored {
					with, without := ix.Extract(o), ix.Extract(withoutStatus(o))
					switch same := slices.Equal(with, without); {
					case ix.ReadsStatus && !same:
						statusSeen[ix.Field] = true
					case !ix.ReadsStatus && !same:
						t.Errorf("index %s of %T reads status, which it does not declare: %v with %s/%s's status, %v without",
							ix.Field, o, with, o.GetNamespace(), o.GetName(), without)
					}
				}
			}
		})
	}
	for _, ix := range indexes {
		if ix.ReadsStatus && !statusSeen[ix.Field] {
			t.Errorf("index %s of %T reads status, but no case's status changes its values: the check cannot tell", ix.Field, ix.Object)
		}
	}
}

// listOf returns an empty list of obj's kind.
func listOf(s *runtime.Scheme, obj client.Object) (client.ObjectList, error) {
	gvk, err := apiutil.GVKForObject(obj, s)
	if err != nil {
		return nil, err
	}
	list, err := s.New(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err != nil {
		return nil, err
	}
	return list.(client.ObjectList), nil
}

// withoutStatus returns a copy of o's top level with the Status field
// zeroed.
func withoutStatus(o client.Object) client.Object {
	v := reflect.New(reflect.TypeOf(o).Elem())
	v.Elem().Set(reflect.ValueOf(o).Elem())
	if f := v.Elem().FieldByName("Status"); f.IsValid() {
		f.SetZero()
	}
	return v.Interface().(client.Object)
}
