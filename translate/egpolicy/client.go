package egpolicy

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// clientTraffic decides ClientTrafficPolicies, which attach to Gateways,
// ListenerSets and their listeners only, as EG's
// ProcessClientTrafficPolicies does: first every policy naming a section,
// then the ListenerSet-wide ones, then the Gateway-wide ones. A section
// belongs to the first policy that names it; a whole-object policy
// applies to the sections left and says which it does not
// (Overridden).
func (a *attacher) clientTraffic(of []*Policy) {
	// sections holds, per Gateway, the sections claimed: a Gateway
	// listener by name, a ListenerSet listener as "ns/name/listener".
	sections := map[types.NamespacedName]map[string]*Policy{}
	claim := func(gw types.NamespacedName, s string, p *Policy) {
		if sections[gw] == nil {
			sections[gw] = map[string]*Policy{}
		}
		sections[gw][s] = p
	}
	for _, p := range of {
		for _, t := range references(p) {
			if t.Section == "" || !a.kind.Accepts(t.Kind) {
				continue
			}
			gw, ls, ok := a.clientTarget(t)
			if !ok {
				continue
			}
			ref, sectionKey, level := ancestorRef("Gateway", gw, t.Section), t.Section, LevelListener
			if ls != nil {
				ref, sectionKey, level = ancestorRef("ListenerSet", ls.Key(), t.Section), ls.Namespace+"/"+ls.Name+"/"+t.Section, LevelListenerSetListener
			}
			refs := []gwv1.ParentReference{ref}
			if pr, bad := a.clientSectionMissing(t, gw, ls); bad {
				a.refuse(p, t, refs, pr)
				continue
			}
			if holder := sections[gw][sectionKey]; holder != nil {
				a.refuseFor(p, t, refs, Problem{Reason: string(gwv1.PolicyReasonConflicted),
					Message: fmt.Sprintf("Unable to target section of %s, another ClientTrafficPolicy has already attached to it", t.Name)}, holder)
				continue
			}
			claim(gw, sectionKey, p)
			if l, ok := a.x.sectionListener(gw, ls, t.Section); ok {
				if errs, closed := a.x.clientProblems(p, l, scopeSection); len(errs) > 0 {
					a.invalid(p, t, level, refs, finish(errs), closed)
					continue
				}
			}
			a.accept(p, t, level, refs)
		}
	}
	wholes := map[types.NamespacedName]map[string]*Policy{}
	for _, pass := range []string{"ListenerSet", "Gateway"} {
		for _, p := range of {
			for _, t := range a.x.targets(p, true) {
				if t.Section != "" || t.Kind != pass {
					continue
				}
				gw, ls, ok := a.clientTarget(t)
				if !ok {
					continue
				}
				ref, scopeKey, level := ancestorRef("Gateway", gw, ""), "gateway", LevelGateway
				if ls != nil {
					ref, scopeKey, level = ancestorRef("ListenerSet", ls.Key(), ""), "listenerset/"+ls.Namespace+"/"+ls.Name, LevelListenerSet
				}
				refs := []gwv1.ParentReference{ref}
				if holder := wholes[gw][scopeKey]; holder != nil {
					a.refuseFor(p, t, refs, conflict(ClientTraffic, t.Kind+" "+t.Name), holder)
					continue
				}
				var overriding []string
				for s := range sections[gw] {
					switch {
					case ls != nil && strings.HasPrefix(s, ls.Namespace+"/"+ls.Name+"/"):
						overriding = append(overriding, strings.TrimPrefix(s, ls.Namespace+"/"+ls.Name+"/"))
					case ls == nil:
						overriding = append(overriding, s[strings.LastIndex(s, "/")+1:])
					}
				}
				if len(overriding) > 0 {
					slices.Sort(overriding)
					a.overridden(p, refs, fmt.Sprintf("There are existing ClientTrafficPolicies that are overriding these sections %v", overriding))
				}
				if wholes[gw] == nil {
					wholes[gw] = map[string]*Policy{}
				}
				wholes[gw][scopeKey] = p
				s := scopeGateway
				if ls != nil {
					s = scopeListenerSet
				}
				// EG translates the policy for each listener left, and
				// refuses it as a whole if one of them fails.
				var errs []string
				for _, l := range a.x.listenersOf(gw) {
					if ls != nil && l.ls != ls || sections[gw][l.sectionKey()] != nil {
						continue
					}
					e, closed := a.x.clientProblems(p, l, s)
					if len(e) > 0 {
						errs = append(errs, e...)
						a.fail(p, l.target(), l.level(), finish(e), closed)
					} else if ls != nil {
						claim(gw, l.sectionKey(), p)
					}
				}
				if len(errs) > 0 {
					msg := finish(errs)
					a.refuse(p, t, refs, Problem{Reason: string(gwv1.PolicyReasonInvalid), Message: msg})
					for _, ref := range refs {
						a.builder(p).warnDeprecated(ref, p.Deprecated)
					}
					// It still configures the listeners it did translate.
					a.r.Attachments = append(a.r.Attachments, Attachment{Policy: p, Level: level, Target: t})
					continue
				}
				a.accept(p, t, level, refs)
			}
		}
	}
}

// invalid refuses p at t as EG's translator refuses a spec it cannot
// translate.
func (a *attacher) invalid(p *Policy, t Target, level Level, refs []gwv1.ParentReference, msg string, closed bool) {
	a.refuse(p, t, refs, Problem{Reason: string(gwv1.PolicyReasonInvalid), Message: msg})
	for _, ref := range refs {
		a.builder(p).warnDeprecated(ref, p.Deprecated)
	}
	a.fail(p, t, level, msg, closed)
}

// sectionListener finds the listener a sectionName names: among a
// ListenerSet's listeners, or among all the Gateway's (its own first),
// as EG looks it up.
func (x *index) sectionListener(gw types.NamespacedName, ls *ListenerSet, section string) (clientListener, bool) {
	for _, l := range x.listenersOf(gw) {
		if l.name == section && (ls == nil || l.ls == ls) {
			return l, true
		}
	}
	return clientListener{}, false
}

// clientTarget resolves a ClientTrafficPolicy target to its Gateway, and
// its ListenerSet when it names one; ok is false when it is not in the
// World.
func (a *attacher) clientTarget(t Target) (gw types.NamespacedName, ls *ListenerSet, ok bool) {
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	if t.Kind == "ListenerSet" {
		ls = a.x.listenerSets[key]
		if ls == nil {
			return gw, nil, false
		}
		return ls.Gateway, ls, true
	}
	return key, nil, a.x.gateways[key] != nil
}

func (a *attacher) clientSectionMissing(t Target, gw types.NamespacedName, ls *ListenerSet) (Problem, bool) {
	if ls != nil {
		if slices.Contains(ls.Listeners, t.Section) {
			return Problem{}, false
		}
		return notFound(fmt.Sprintf("ListenerSet %s/%s does not have a listener named %q", ls.Namespace, ls.Name, t.Section)), true
	}
	g := a.x.gateways[gw]
	// EG looks the section up among all the Gateway's listeners, those
	// of its ListenerSets included.
	if slices.Contains(g.Listeners, t.Section) {
		return Problem{}, false
	}
	for _, s := range a.x.w.ListenerSets {
		if s.Gateway == gw && slices.Contains(s.Listeners, t.Section) {
			return Problem{}, false
		}
	}
	return notFound(fmt.Sprintf("No section name %s found for Gateway %s", t.Section, gw)), true
}
