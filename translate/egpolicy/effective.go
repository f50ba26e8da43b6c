package egpolicy

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/types"
)

// Point is a place a request goes through: a rule of a route, as it
// attaches to a listener of a Gateway, directly or through a ListenerSet.
type Point struct {
	Gateway  types.NamespacedName
	Listener string
	// ListenerSet is the ListenerSet that holds the listener, nil for a
	// listener of the Gateway itself.
	ListenerSet *types.NamespacedName
	// RouteKind and Route name the route; Rule is the rule's name ("" for
	// a rule without one). Leave Route empty to ask about the listener
	// alone (ClientTrafficPolicy, EnvoyPatchPolicy).
	RouteKind string
	Route     types.NamespacedName
	Rule      string
}

// Applied is a policy in effect at a Point.
type Applied struct {
	Policy *Policy
	// Level is where it attaches; Target is what it names there.
	Level  Level
	Target Target
	// MergedWith is the less specific policy of the same kind that EG
	// merges a route policy with spec.mergeType into; nil otherwise.
	// gwsim reports the merge and does not merge the specs.
	MergedWith *Applied
	// Invalid is set when EG could not translate the policy here
	// (Result.Failed): none of its effects apply, and FailsClosed says
	// whether EG answers with a 500 instead.
	Invalid     string
	FailsClosed bool
}

// Effective returns the policies in effect at pt, one per kind (the most
// specific attachment wins: route rule, route, ListenerSet listener,
// ListenerSet, Gateway listener, Gateway), plus every EnvoyPatchPolicy
// on the Gateway, in Kinds order and, for patches, in EG's order.
func (r *Result) Effective(pt Point) []Applied {
	var out []Applied
	for _, k := range Kinds {
		var covering []Applied
		// A failed attachment comes first: on the listeners where EG
		// failed, it displaces the same policy's accepted attachment.
		for _, list := range [][]Attachment{r.Failed, r.Attachments} {
			for i := range list {
				if at := &list[i]; at.Policy.Kind == k && at.covers(pt) {
					covering = append(covering, Applied{Policy: at.Policy, Level: at.Level, Target: at.Target, Invalid: at.Invalid, FailsClosed: at.FailsClosed})
				}
			}
		}
		if k == EnvoyPatch || len(covering) == 0 {
			out = append(out, covering...)
			continue
		}
		// The most specific wins; of one level, the first attached (the
		// oldest: later ones were refused as Conflicted).
		slices.SortStableFunc(covering, func(a, b Applied) int { return cmp.Compare(b.Level, a.Level) })
		best := covering[0]
		if best.Invalid == "" && best.Policy.MergeType != nil && best.Level >= LevelRoute {
			for _, c := range covering[1:] {
				if c.Level < LevelRoute {
					best.MergedWith = &c
					break
				}
			}
		}
		out = append(out, best)
	}
	return out
}

// covers reports whether the attachment applies at pt, whatever more
// specific attachment may displace it.
func (at *Attachment) covers(pt Point) bool {
	if at.Only != nil && !slices.ContainsFunc(at.Only, func(l ListenerAt) bool {
		return l.Gateway == pt.Gateway && l.Name == pt.Listener && (l.ListenerSet == nil) == (pt.ListenerSet == nil) &&
			(l.ListenerSet == nil || *l.ListenerSet == *pt.ListenerSet)
	}) {
		return false
	}
	t := at.Target
	key := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	switch at.Level {
	case LevelGateway:
		if at.Policy.Kind == EnvoyPatch && t.Kind == "GatewayClass" {
			return true // the class's merged Gateways; the caller asks for one of them
		}
		return key == pt.Gateway
	case LevelListener:
		return key == pt.Gateway && pt.ListenerSet == nil && t.Section == pt.Listener
	case LevelListenerSet:
		return pt.ListenerSet != nil && key == *pt.ListenerSet
	case LevelListenerSetListener:
		return pt.ListenerSet != nil && key == *pt.ListenerSet && t.Section == pt.Listener
	case LevelRoute:
		return pt.Route.Name != "" && t.Kind == pt.RouteKind && key == pt.Route
	case LevelRouteRule:
		return pt.Route.Name != "" && t.Kind == pt.RouteKind && key == pt.Route && pt.Rule != "" && t.Section == pt.Rule
	}
	return false
}
