package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate/diag"
)

// A route whose parents are not in the input (the platform repository holds
// the Gateway) or that names none gets no status from gwsim, since no
// controller in the input would write it. Its own checks still matter: the
// findings here report what the route's status would say about itself
// wherever it attached (ResolvedRefs, dropped rules), so that an
// application repository is linted without its Gateway.

// assumedParent is the Info finding for a parentRef to a Gateway that the
// input does not hold and the open world assumes: nothing is invented about
// its listeners, so the attachment is not checked.
func (w *world) assumedParent(r routeInfo, field, ns, name string) (diag.Finding, bool) {
	if !w.opts.OpenWorld.Assumes(gwv1.GroupName, "Gateway", ns) {
		return diag.Finding{}, false
	}
	return w.routeFinding(r, diag.Info, field, diag.ReasonAttachmentNotChecked, fmt.Sprintf(
		"parentRef names Gateway %s/%s, which is not in the input and assumed to exist elsewhere (%s); "+
			"the route's attachment to it is not checked, its own rules, backends and filters are (give gwsim the Gateway, for example with --gateways, to check attachment)",
		ns, name, w.opts.OpenWorld.why("Gateway", ns))), true
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
// parent, or only parents the open world assumes outside the input.
func (w *world) checkedAlone(r routeInfo) bool {
	for _, ref := range r.parentRefs {
		if deref(ref.Group) != gwv1.GroupName || deref(ref.Kind) != "Gateway" { // defaulted by the CRD
			return false
		}
		ns := r.meta.Namespace
		if ref.Namespace != nil {
			ns = string(*ref.Namespace)
		}
		if _, ok := w.gateways[keyOf(ns, string(ref.Name))]; ok || !w.opts.OpenWorld.Assumes(gwv1.GroupName, "Gateway", ns) {
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
