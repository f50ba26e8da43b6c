package bench_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/controller"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/translate"
)

// controllerName is the CLI's default --controller-name.
const controllerName = "gwsim.dev/gateway-controller"

// options are the CLI's: conditions stamped at the Unix epoch.
func options() offline.Options {
	return offline.Options{Translate: translate.Options{Now: metav1.NewTime(time.Unix(0, 0).UTC())}}
}

// loaded is what the CLI hands the offline controller: the loaded objects
// with whatever gwsim assumes added (nothing, for a generated set).
type loaded struct {
	objs    []client.Object
	sources diag.Sources
}

func loadDir(b *testing.B, dir string) loaded {
	b.Helper()
	res := load.Load(load.Options{Paths: []string{dir}})
	if len(res.Errors) > 0 {
		b.Fatalf("loading %s: %v", dir, res.Errors[0])
	}
	objs, _ := load.AssumeMissing(res.Objects, controllerName)
	return loaded{objs: objs, sources: res.Sources}
}

// newStore builds the store offline.Run builds.
func newStore(b *testing.B, l loaded) client.Client {
	b.Helper()
	c, err := offline.IndexedStore(scheme.New(), l.objs, controller.Indexes())
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// reconciled is a store after the fixpoint.
func reconciled(b *testing.B, l loaded) client.Client {
	b.Helper()
	c := newStore(b, l)
	if _, err := offline.Reconcile(context.Background(), c, l.sources, options()); err != nil {
		b.Fatal(err)
	}
	return c
}

// inputOf sorts objects into a translate.Input, as offline reads the world
// back after the fixpoint.
func inputOf(objs []client.Object, sources diag.Sources) translate.Input {
	in := translate.Input{Sources: sources}
	for _, o := range objs {
		in.Add(o)
	}
	return in
}
