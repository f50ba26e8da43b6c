package controller

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/translate"
	"github.com/gwsim/gwsim/translate/diag"
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
