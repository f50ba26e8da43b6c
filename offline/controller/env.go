package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate"
)

// CachedRead marks reads whose objects are only looked at, handed to
// Translate or have a top-level field replaced before a write, never
// changed in place: like reads from controller-runtime's cache with the same
// option, they skip the deep copy and share memory with the stored object.
// A run reads every route several times per pass, and the copies were a
// fifth of the reconcile's time (docs/performance.md).
var CachedRead = client.UnsafeDisableDeepCopy

// TranslateFunc is the signature of translate.Translate.
type TranslateFunc func(translate.Input, translate.Options) translate.Output

// Env is what every reconciler holds: the client it reads and writes
// through, the controller's options, where objects were loaded from, and
// the objects of kinds the store does not hold.
type Env struct {
	Client  client.Client
	Options translate.Options
	Sources diag.Sources
	// OtherObjects name the objects of kinds gwsim does not decode, which
	// the store does not hold; a parametersRef may name one. Read-only.
	OtherObjects []translate.OtherObject
	// Translate computes status; nil means translate.Translate. Tests of the
	// reconcile mechanics replace it with a small stand-in.
	Translate TranslateFunc
	// Reads, when set, is shared by the reconcilers of one fixpoint loop
	// to read what no reconciler writes once rather than once per
	// reconcile; nil reads everything through Client every time.
	Reads *ReadMemo
	// Policies, when set, is shared by the Envoy Gateway policy
	// reconcilers of one fixpoint loop (PolicyMemo); nil decides the
	// attachment again for each policy.
	Policies *PolicyMemo
}

// translate computes the status of in (translate.Options.StatusOnly: a
// reconciler writes nothing else).
func (e Env) translate(in translate.Input) translate.Output {
	in.Sources = e.Sources
	opts := e.Options
	opts.StatusOnly = true
	if e.Translate == nil {
		return translate.Translate(in, opts)
	}
	return e.Translate(in, opts)
}

// StoredGetter is implemented by clients that can hand out a stored
// object itself rather than a copy (offline/store.Store.StoredObject):
// found is false when key names no object of obj's kind, and obj only
// names the kind. What it returns must not be modified, nor anything it
// points to.
type StoredGetter interface {
	StoredObject(key client.ObjectKey, obj client.Object) (stored client.Object, found bool, err error)
}

// GetStored reads key as a cached read (CachedRead) that the reader keeps
// for a while: the stored object itself when c offers it (StoredGetter),
// else obj filled by Get; found is false when it does not exist. The read
// memo keeps every backend it reads for the whole loop, and a Get's copy
// of each Service's top level (about 600 bytes) was 60 MB of the live
// heap at 100,000 routes.
func GetStored(ctx context.Context, c client.Client, key types.NamespacedName, obj client.Object) (client.Object, bool, error) {
	if sg, ok := c.(StoredGetter); ok {
		return sg.StoredObject(key, obj)
	}
	found, err := getIfExists(ctx, c, key, obj)
	return obj, found, err
}
