package egpolicy

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Options are the controller's settings that status carries.
type Options struct {
	ControllerName string
	// Now stamps lastTransitionTime.
	Now metav1.Time
}

// Attachment is a policy in effect at one scope: accepted there, though a
// more specific policy of its kind may displace it below (Effective).
type Attachment struct {
	Policy *Policy
	Level  Level
	// Target is what the policy names; for a route, Target.Kind is the
	// route kind and Target.Section the rule name.
	Target Target
	// Invalid is, for an attachment in Result.Failed, why EG's
	// translator refused the policy there (its Invalid message).
	Invalid string
	// FailsClosed is true where EG then answers the requests the policy
	// would have shaped with a 500 (it does so for every spec error, so
	// that a policy it cannot configure leaves no route open), false
	// where it leaves them as if the policy were absent.
	FailsClosed bool
	// Only restricts a failed attachment to these listeners (EG failed
	// on them and translated the policy on the others); nil for all.
	Only []ListenerAt
}

// Refusal is a policy refused at one target, for findings.
type Refusal struct {
	Policy  *Policy
	Target  Target
	Problem Problem
	// Winner is, for a conflict, the policy that holds the target.
	Winner *Policy
}

// Result is what Attach decides.
type Result struct {
	// Ancestors holds each policy's status.ancestors by kind and key. A
	// policy none of whose targets is in the World has no entry: EG
	// leaves its status to whichever controller handles its targets.
	Ancestors map[Kind]map[types.NamespacedName][]gwv1.PolicyAncestorStatus
	// Attachments are the accepted attachments, in EG's processing order.
	Attachments []Attachment
	// Refusals are the targets where a policy was refused (Conflicted,
	// TargetNotFound, Invalid).
	Refusals []Refusal
	// Failed are the scopes where EG's translator took a policy and
	// could not translate its spec (Invalid): there the policy still
	// displaces less specific ones, and has none of its own effects.
	Failed []Attachment
	// Overridden maps a policy (by kind and key) to the scopes that
	// displace it, worded as its Overridden condition words them.
	Overridden map[Kind]map[types.NamespacedName]string
	// Policies are the policies Attach read, sorted (Sort).
	Policies []Policy
	// World is what Attach looked at.
	World *World
}

// Sections returns the sections of an attachment's whole target that a
// more specific policy could take from it: a Gateway's or ListenerSet's
// listeners, a route's rules when every rule has a name. It is nil for an
// attachment to a section, or to a route with an unnamed rule.
func (r *Result) Sections(a Attachment) []string {
	key := types.NamespacedName{Namespace: a.Target.Namespace, Name: a.Target.Name}
	x := newIndex(r.World)
	switch a.Level {
	case LevelGateway:
		if g := x.gateways[key]; g != nil {
			return g.Listeners
		}
	case LevelListenerSet:
		if ls := x.listenerSets[key]; ls != nil {
			return ls.Listeners
		}
	case LevelRoute:
		if rt := x.routes[routeKey{a.Target.Kind, key}]; rt != nil && len(rt.RuleNames) == rt.Rules {
			return rt.RuleNames
		}
	}
	return nil
}

// Attach decides where every policy attaches and writes its ancestors.
// ps may be in any order and of any kinds; Attach does not change them.
func Attach(w *World, ps []Policy, opts Options) *Result {
	sorted := slices.Clone(ps)
	Sort(sorted)
	r := &Result{Ancestors: map[Kind]map[types.NamespacedName][]gwv1.PolicyAncestorStatus{},
		Overridden: map[Kind]map[types.NamespacedName]string{}, Policies: sorted}
	x := newIndex(w)
	x.now = opts.Now.Time
	r.World = w
	for _, k := range Kinds {
		var of []*Policy
		for i := range r.Policies {
			if r.Policies[i].Kind == k {
				of = append(of, &r.Policies[i])
			}
		}
		if len(of) == 0 {
			continue
		}
		a := &attacher{x: x, r: r, opts: opts, kind: k, status: map[*Policy]*statusBuilder{}}
		switch k {
		case ClientTraffic:
			a.clientTraffic(of)
		case EnvoyPatch:
			a.patch(of)
		default:
			a.layered(of)
		}
		a.finish(of)
	}
	return r
}

// attacher decides one kind's policies.
type attacher struct {
	x      *index
	r      *Result
	opts   Options
	kind   Kind
	status map[*Policy]*statusBuilder
	// claimed holds the scopes a policy of the kind has attached to, and
	// the policy that did.
	claimed map[scope]*Policy
	// parents are the policies route policies merge into (layered
	// kinds), and merged the route scopes merged under each scope.
	parents map[scope]*Policy
	merged  map[scope]map[scope]bool
}

func (a *attacher) builder(p *Policy) *statusBuilder {
	b := a.status[p]
	if b == nil {
		b = &statusBuilder{controller: gwv1.GatewayController(a.opts.ControllerName), generation: p.Generation, now: a.opts.Now}
		a.status[p] = b
	}
	return b
}

// claim gives s to p unless another policy holds it, which it returns.
func (a *attacher) claim(s scope, p *Policy) (holder *Policy) {
	if a.claimed == nil {
		a.claimed = map[scope]*Policy{}
	}
	if h := a.claimed[s]; h != nil {
		return h
	}
	a.claimed[s] = p
	return nil
}

func (a *attacher) refuse(p *Policy, t Target, refs []gwv1.ParentReference, pr Problem) {
	a.refuseFor(p, t, refs, pr, nil)
}

func (a *attacher) refuseFor(p *Policy, t Target, refs []gwv1.ParentReference, pr Problem, winner *Policy) {
	for _, ref := range refs {
		a.builder(p).refuse(ref, pr)
	}
	if len(refs) > 0 {
		a.r.Refusals = append(a.r.Refusals, Refusal{Policy: p, Target: t, Problem: pr, Winner: winner})
	}
}

func (a *attacher) accept(p *Policy, t Target, level Level, refs []gwv1.ParentReference) {
	for _, ref := range refs {
		a.builder(p).accept(ref)
		a.builder(p).warnDeprecated(ref, p.Deprecated)
	}
	a.r.Attachments = append(a.r.Attachments, Attachment{Policy: p, Level: level, Target: t})
}

// fail records p at t as taken by EG's translator and not translated.
func (a *attacher) fail(p *Policy, t Target, level Level, msg string, closed bool) {
	a.r.Failed = append(a.r.Failed, Attachment{Policy: p, Level: level, Target: t, Invalid: msg, FailsClosed: closed})
}

func (a *attacher) overridden(p *Policy, refs []gwv1.ParentReference, msg string) {
	if msg == "" {
		return
	}
	for _, ref := range refs {
		a.builder(p).overridden(ref, msg)
	}
	if a.r.Overridden[a.kind] == nil {
		a.r.Overridden[a.kind] = map[types.NamespacedName]string{}
	}
	a.r.Overridden[a.kind][p.Key()] = msg
}

// finish writes the ancestors of the policies that got any.
func (a *attacher) finish(of []*Policy) {
	for _, p := range of {
		b := a.status[p]
		if b == nil || len(b.ancestors) == 0 {
			continue
		}
		if a.r.Ancestors[a.kind] == nil {
			a.r.Ancestors[a.kind] = map[types.NamespacedName][]gwv1.PolicyAncestorStatus{}
		}
		a.r.Ancestors[a.kind][p.Key()] = b.done()
	}
}

func conflict(kind Kind, what string) Problem {
	return Problem{Reason: string(gwv1.PolicyReasonConflicted), Message: fmt.Sprintf("Unable to target %s, another %s has already attached to it", what, kind)}
}

func notFound(msg string) Problem {
	return Problem{Reason: string(gwv1.PolicyReasonTargetNotFound), Message: msg}
}
