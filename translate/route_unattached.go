package translate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// A route whose parents are not in the input (the platform repository holds
// the Gateway) or that names none gets no status from gwsim, since no
// controller in the input would write it. Its own checks still matter: the
// findings here report what the route's status would say about itself
// wherever it attached (ResolvedRefs, dropped rules), so that an
// application repository is linted without its Gateway.

// assumedParent is the Info finding for a parentRef to a Gateway or a
// ListenerSet (kind) that the input does not hold and the open world
// assumes: nothing is invented about its listeners, so the attachment is
// not checked. GEP-1713 made ListenerSets for teams that attach to a
// Gateway they do not own, so a ListenerSet kept elsewhere is as ordinary
// as a Gateway kept elsewhere.
func (w *world) assumedParent(r routeInfo, field, kind, ns, name string) (diag.Finding, bool) {
	if !w.opts.OpenWorld.Assumes(gwv1.GroupName, kind, ns) {
		return diag.Finding{}, false
	}
	return w.routeFinding(r, diag.Info, field, diag.ReasonAttachmentNotChecked, fmt.Sprintf(
		"parentRef names %s %s/%s, which is not in the input and assumed to exist elsewhere (%s); "+
			"the route's attachment to it is not checked, its own rules, backends and filters are (give gwsim the %s, for example with --gateways, to check attachment)",
		kind, ns, name, w.opts.OpenWorld.why(kind, ns), kind)), true
}

// setElsewhere reports whether ns/name is a ListenerSet of the input whose
// Gateway the open world assumes outside the input: the ListenerSet's
// attachment, and so its routes', cannot be checked.
func (w *world) setElsewhere(ns, name string) bool {
	ls, ok := w.listenerSets.byKey[keyOf(ns, name)]
	if !ok {
		return false
	}
	gw, ok := parentGateway(ls)
	return ok && w.gatewayElsewhere(gw)
}

// gatewayElsewhere reports whether Gateway gw is not in the input and the
// open world assumes it exists elsewhere.
func (w *world) gatewayElsewhere(gw types.NamespacedName) bool {
	_, ok := w.gateways[gw]
	return !ok && w.opts.OpenWorld.Assumes(gwv1.GroupName, "Gateway", gw.Namespace)
}

// noParentRefs is the Warning for a route that names no parent: it attaches
// nowhere and serves no traffic, which is rarely what was meant.
func (w *world) noParentRefs(r routeInfo) (diag.Finding, bool) {
	if len(r.parentRefs) > 0 {
		return diag.Finding{}, false
	}
	return w.routeFinding(r, diag.Warning, "spec.parentRefs", diag.ReasonNoParentRefs,
		"the route names no parentRefs, so it attaches to no Gateway and serves no traffic"), true
}

// checkedAlone reports whether route r is checked on its own: it names no
// parent, or only parents the open world assumes outside the input (a
// Gateway, a ListenerSet, or a ListenerSet of the input whose Gateway is
// outside it).
func (w *world) checkedAlone(r routeInfo) bool {
	for _, ref := range r.parentRefs {
		if deref(ref.Group) != gwv1.GroupName { // defaulted by the CRD
			return false
		}
		ns := r.meta.Namespace
		if ref.Namespace != nil {
			ns = string(*ref.Namespace)
		}
		key := keyOf(ns, string(ref.Name))
		switch deref(ref.Kind) {
		case "Gateway":
			if !w.gatewayElsewhere(key) {
				return false
			}
		case "ListenerSet":
			_, inInput := w.listenerSets.byKey[key]
			if inInput && !w.setElsewhere(ns, string(ref.Name)) ||
				!inInput && !w.opts.OpenWorld.Assumes(gwv1.GroupName, "ListenerSet", ns) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ownFindings are the findings a route checked alone gets in place of the
// status conditions no parent carries: the errors its ResolvedRefs and
// Accepted (or PartiallyInvalid) conditions would report wherever it
// attached.
func (w *world) ownFindings(res *routeResult) []diag.Finding {
	var out []diag.Finding
	if !res.refs.Status {
		out = append(out, w.routeFinding(res.info, diag.Error, "spec", res.refs.Reason,
			fmt.Sprintf("%s would be False (%s) on every parent: %s", res.refs.Type, res.refs.Reason, res.refs.Message)))
	}
	if len(res.dropped) > 0 {
		what := string(gwv1.RouteConditionPartiallyInvalid) + " would be True"
		if len(res.dropped) == len(res.rules) {
			what = string(gwv1.RouteConditionAccepted) + " would be False"
		}
		out = append(out, w.routeFinding(res.info, diag.Error, "spec.rules", res.dropped[0].problem.reason,
			fmt.Sprintf("%s (%s) on every parent: Dropped Rule(s): %s", what, res.dropped[0].problem.reason, describeDropped(res.dropped))))
	}
	return out
}
