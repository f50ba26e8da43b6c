package load

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/validate"
)

// ChannelAuto is the channel that follows the input: experimental when the
// input holds a kind, or a kind at a version, that only the experimental
// channel's CRDs serve, standard otherwise. Such an input cannot have been
// applied to a cluster without the experimental CRDs, so calling its
// objects "not served" would fail input that works.
const ChannelAuto validate.Channel = "auto"

// loadAuto loads under the standard channel, watching for an object only
// the experimental channel serves. At the first such object it stops
// reading and decoding and loads the input again under the experimental
// channel: a channel decides what every object's admission prunes and
// defaults, so no object decoded under the other one can be kept. Input
// that cannot be read twice (stdin, a FIFO named with -f) is kept in
// memory by the first pass. The common input, standard throughout, is read
// once.
func loadAuto(opts Options) Result {
	if opts.NoValidation {
		// Without admission the channel only picks the defaults, and the
		// experimental CRDs' cover both channels (see admission.defaults).
		opts.Channel = validate.Standard
		res := Load(opts)
		return res
	}
	cache := &inputCache{kept: map[string][]byte{}}
	probe := newChannelProbe(true)
	std := opts
	std.Channel = validate.Standard
	d := newDecoder(opts.Namespace, opts.Limits, newAdmission(validate.Standard, false, opts.Fields, opts.Admission, opts.Fastpath), opts.Fastpath)
	d.probe = probe
	res := load(std, d, cache)
	if !probe.found.Load() {
		return res
	}
	exp := opts
	exp.Channel = validate.Experimental
	probe = newChannelProbe(false)
	d = newDecoder(opts.Namespace, opts.Limits, newAdmission(validate.Experimental, false, opts.Fields, opts.Admission, opts.Fastpath), opts.Fastpath)
	d.probe = probe
	cache.replay = true
	res = load(exp, d, cache)
	res.Channel = validate.Experimental
	if f, ok := probe.finding(); ok {
		res.Findings = diag.Sort(append(res.Findings, f))
	}
	return res
}

// channelProbe records the objects that only the experimental channel
// serves. The decoding workers share it.
type channelProbe struct {
	standard, experimental *validate.Validator
	// stop makes the first object found end the pass (see loadAuto).
	stop  bool
	found atomic.Bool
	mu    sync.Mutex
	seen  []probed
}

type probed struct {
	ref diag.ObjectRef
	src diag.Source
	gvk schema.GroupVersionKind
}

func newChannelProbe(stop bool) *channelProbe {
	return &channelProbe{standard: validate.New(validate.Standard), experimental: validate.New(validate.Experimental), stop: stop}
}

// check records the object when only the experimental channel serves its
// kind at its version.
func (p *channelProbe) check(gvk schema.GroupVersionKind, ref diag.ObjectRef, src diag.Source) {
	if p.standard.Serves(gvk) || !p.experimental.Serves(gvk) {
		return
	}
	p.found.Store(true)
	p.mu.Lock()
	p.seen = append(p.seen, probed{ref: ref, src: src, gvk: gvk})
	p.mu.Unlock()
}

// stopped reports whether the pass is to end: the probe stops at the
// first object found.
func (p *channelProbe) stopped() bool {
	return p != nil && p.stop && p.found.Load()
}

// finding is the info finding that says why the experimental channel was
// chosen, at the first object that needs it, in the order of kind,
// namespace and name, so that the split of the input into files does not
// change which.
func (p *channelProbe) finding() (diag.Finding, bool) {
	if len(p.seen) == 0 {
		return diag.Finding{}, false
	}
	slices.SortFunc(p.seen, func(a, b probed) int {
		return cmp.Or(cmp.Compare(a.ref.Kind, b.ref.Kind), cmp.Compare(a.ref.Namespace, b.ref.Namespace), cmp.Compare(a.ref.Name, b.ref.Name),
			cmp.Compare(a.gvk.Version, b.gvk.Version), cmp.Compare(a.src.File, b.src.File), cmp.Compare(a.src.Line, b.src.Line))
	})
	first := p.seen[0]
	more := ""
	if n := len(p.seen) - 1; n > 0 {
		more = fmt.Sprintf("; %d more %s need%s it too", n, plural(n, "object", "objects"), plural(n, "s", ""))
	}
	return diag.Finding{
		Severity: diag.Info, Object: first.ref, Source: first.src, Field: "apiVersion", Reason: diag.ReasonChannelChosen,
		Message: fmt.Sprintf("only the experimental channel's CRDs serve %s in version %s, so --channel auto validates the input against the experimental channel%s",
			first.gvk.Kind, first.gvk.GroupVersion(), more),
	}, true
}
