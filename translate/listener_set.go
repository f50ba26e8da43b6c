package translate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// listenerSetResult is what gwsim decided about one ListenerSet whose
// parentRef names a Gateway of gwsim's (GEP-1713).
type listenerSetResult struct {
	set     *gwv1.ListenerSet
	gateway *gatewayResult
	// refusedReason and refusedMsg say why the Gateway does not take the
	// ListenerSet (NotAllowed, ParentNotAccepted); both are empty when it is
	// attached.
	refusedReason, refusedMsg string
	// listeners are the ListenerSet's listeners, in spec order, once they
	// are merged into the Gateway's; nil when the ListenerSet is refused.
	listeners []*listenerResult
}

func (s *listenerSetResult) name() string { return s.set.Namespace + "/" + s.set.Name }

// attached reports whether the Gateway took the ListenerSet's listeners.
func (s *listenerSetResult) attached() bool { return s.refusedReason == "" }

// accepted reports whether the ListenerSet is Accepted: attached, with at
// least one listener that is programmed. Only these count in the Gateway's
// status.attachedListenerSets.
func (s *listenerSetResult) accepted() bool {
	return s.attached() && slices.ContainsFunc(s.listeners, func(l *listenerResult) bool { return l.programmed })
}

// listenerSetIndex indexes the input's ListenerSets by key and by the
// Gateway their parentRef names.
type listenerSetIndex struct {
	byKey     map[types.NamespacedName]*gwv1.ListenerSet
	byGateway map[types.NamespacedName][]*gwv1.ListenerSet
}

func indexListenerSets(sets []*gwv1.ListenerSet) listenerSetIndex {
	idx := listenerSetIndex{byKey: map[types.NamespacedName]*gwv1.ListenerSet{}, byGateway: map[types.NamespacedName][]*gwv1.ListenerSet{}}
	for _, ls := range sets {
		idx.byKey[keyOf(ls.Namespace, ls.Name)] = ls
		if gw, ok := parentGateway(ls); ok {
			idx.byGateway[gw] = append(idx.byGateway[gw], ls)
		}
	}
	return idx
}

// parentGateway returns the Gateway a ListenerSet's parentRef names (in the
// ListenerSet's namespace when it names none). ok is false when it names
// another kind. The CRD defaults group and kind to a Gateway's; the loader
// applies it.
func parentGateway(ls *gwv1.ListenerSet) (types.NamespacedName, bool) {
	ref := ls.Spec.ParentRef
	if deref(ref.Group) != gwv1.GroupName || deref(ref.Kind) != "Gateway" {
		return types.NamespacedName{}, false
	}
	ns := ls.Namespace
	if ref.Namespace != nil && *ref.Namespace != "" {
		ns = string(*ref.Namespace)
	}
	return keyOf(ns, string(ref.Name)), true
}

// compareListenerSets orders ListenerSets by the listener precedence of
// ListenerSetSpec.Listeners: the oldest creationTimestamp first, then
// "{namespace}/{name}" alphabetically.
func compareListenerSets(a, b *gwv1.ListenerSet) int {
	return cmp.Or(compareCreation(a.CreationTimestamp, b.CreationTimestamp),
		cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// evaluateListenerSets decides the ListenerSets whose parentRef names gr's
// Gateway, in precedence order. A ListenerSet is attached when the
// Gateway's spec.allowedListeners admits its namespace and the Gateway is
// accepted. Its listeners then go through the same evaluation as the
// Gateway's own, and are merged after them: the Gateway treats the merged
// list as its listeners (GEP-1713, "Listener Validation"). A merged
// listener that clashes (see clash) with an accepted listener of an object
// earlier in the list is conflicted, and the earlier one keeps the port:
// the Gateway's own listeners come first, then the ListenerSets in
// precedence order. Within one ListenerSet no entry takes precedence over
// another (evaluateListenerEntries).
func (w *world) evaluateListenerSets(gr *gatewayResult, gatewayAccepted bool) []*listenerSetResult {
	sets := slices.Clone(w.listenerSets.byGateway[keyOf(gr.gateway.Namespace, gr.gateway.Name)])
	slices.SortFunc(sets, compareListenerSets)
	var merged []*listenerResult
	for _, l := range gr.listeners {
		if l.accepted {
			merged = append(merged, l)
		}
	}
	out := make([]*listenerSetResult, 0, len(sets))
	for _, ls := range sets {
		res := &listenerSetResult{set: ls, gateway: gr}
		out = append(out, res)
		if msg := w.refusesListenerSet(gr.gateway, ls); msg != "" {
			res.refusedReason, res.refusedMsg = string(gwv1.ListenerSetReasonNotAllowed), msg
			continue
		}
		if !gatewayAccepted {
			res.refusedReason = string(gwv1.ListenerSetReasonParentNotAccepted)
			res.refusedMsg = fmt.Sprintf("Gateway %s is not accepted; fix it first (see its status)", gr.name())
			continue
		}
		if gr.choices.EnvoyListenerRules {
			res.listeners = w.envoyListenerEntries(gr, ls)
			continue
		}
		res.listeners = w.evaluateListenerEntries(gr, ls, merged)
		for _, l := range res.listeners {
			if l.accepted {
				merged = append(merged, l)
			}
		}
	}
	if gr.choices.EnvoyListenerRules {
		envoySettleListenerSets(gr, out)
	}
	return out
}

// evaluateListenerEntries decides the listeners of one attached ListenerSet
// against earlier, the accepted listeners that take precedence over it.
// GEP-1713 has the merged list validated as one Gateway's, with precedence
// deciding conflicts between objects: precedence first (an entry that
// clashes with an earlier listener is conflicted, the earlier one keeps
// the port), then the Gateway's own rule among the entries that remain,
// which picks no winner (markConflicts): two entries of one ListenerSet
// that clash are both conflicted, whatever their order in the list.
func (w *world) evaluateListenerEntries(gr *gatewayResult, ls *gwv1.ListenerSet, earlier []*listenerResult) []*listenerResult {
	owner := listenerOwner{kind: "ListenerSet", namespace: ls.Namespace, name: ls.Name}
	entries := make([]*listenerResult, len(ls.Spec.Listeners))
	var remaining []*listenerResult
	for i, e := range ls.Spec.Listeners {
		l := w.evaluateListener(gr.gateway, owner, listenerOf(e))
		markPrecedenceConflict(l, earlier, gr.name())
		if l.problems.conflictReason == "" {
			remaining = append(remaining, l)
		}
		entries[i] = l
	}
	markConflicts(remaining)
	for _, l := range entries {
		l.settle()
	}
	return entries
}

// listenerOf is a ListenerSet entry as a Gateway listener: the two types
// hold the same fields, so one evaluation serves both.
func listenerOf(e gwv1.ListenerEntry) gwv1.Listener {
	return gwv1.Listener{Name: e.Name, Hostname: e.Hostname, Port: e.Port, Protocol: e.Protocol, TLS: e.TLS, AllowedRoutes: e.AllowedRoutes}
}

// markPrecedenceConflict conflicts l when it clashes with a listener that
// takes precedence. A protocol clash outranks a hostname clash. The
// message names neither the other listener nor its owner: the GEP asks
// not to leak what a ListenerSet's author could not otherwise see.
func markPrecedenceConflict(l *listenerResult, earlier []*listenerResult, gateway string) {
	if l.problems.acceptedReason != "" {
		return
	}
	var with *listenerResult
	reason := ""
	for _, e := range earlier {
		r := clash(l.spec, e.spec)
		if r == string(gwv1.ListenerReasonProtocolConflict) {
			reason, with = r, e
			break
		}
		if r != "" && reason == "" {
			reason, with = r, e
		}
	}
	if with == nil {
		return
	}
	const why = "by a listener that takes precedence (the Gateway's own listeners, then ListenerSets by creationTimestamp, then namespace/name)"
	l.problems.conflictReason = reason
	switch {
	case reason == string(gwv1.ListenerReasonHostnameConflict):
		l.problems.conflictMsg = fmt.Sprintf("port %d with hostname %q is already used on Gateway %s %s; use another hostname or port",
			l.spec.Port, hostnameOf(l.spec.Hostname), gateway, why)
	case familyOf(l.spec.Protocol) != familyOf(with.spec.Protocol):
		l.problems.conflictMsg = fmt.Sprintf("port %d is already used with an incompatible protocol on Gateway %s %s; use another port",
			l.spec.Port, gateway, why)
	default:
		l.problems.conflictMsg = fmt.Sprintf("port %d/%s is already used on Gateway %s %s; use another port", l.spec.Port, l.spec.Protocol, gateway, why)
	}
}

// refusesListenerSet says why Gateway g's spec.allowedListeners does not
// admit ls, or "". Without allowedListeners (the CRD has no default for
// it) a Gateway admits no ListenerSet, as the spec says; inside it the CRD
// defaults namespaces.from to None, which the loader applies. Selector
// matches the labels of the ListenerSet's namespace, as allowedRoutes does
// for routes.
func (w *world) refusesListenerSet(g *gwv1.Gateway, ls *gwv1.ListenerSet) string {
	from := gwv1.NamespacesFromNone
	var selector *metav1.LabelSelector
	if al := g.Spec.AllowedListeners; al != nil && al.Namespaces != nil {
		from = deref(al.Namespaces.From)
		selector = al.Namespaces.Selector
	}
	gw := g.Namespace + "/" + g.Name
	switch from {
	case gwv1.NamespacesFromAll:
		return ""
	case gwv1.NamespacesFromSame:
		if ls.Namespace == g.Namespace {
			return ""
		}
		return fmt.Sprintf("Gateway %s only allows ListenerSets from namespace %s (spec.allowedListeners.namespaces.from: Same)", gw, g.Namespace)
	case gwv1.NamespacesFromSelector:
		sel, err := metav1.LabelSelectorAsSelector(selector)
		if err != nil || selector == nil {
			return fmt.Sprintf("Gateway %s has an invalid spec.allowedListeners.namespaces.selector", gw)
		}
		if sel.Matches(labels.Set(w.namespaceLabels(ls.Namespace))) {
			return ""
		}
		return fmt.Sprintf("Gateway %s does not select namespace %s (spec.allowedListeners.namespaces.selector %s)", gw, ls.Namespace, sel)
	case gwv1.NamespacesFromNone:
		return fmt.Sprintf("Gateway %s allows no ListenerSets (spec.allowedListeners.namespaces.from is None, the default); set it to Same, Selector or All", gw)
	}
	return fmt.Sprintf("Gateway %s has spec.allowedListeners.namespaces.from %q, which is not supported", gw, from)
}

// status builds the ListenerSet's status once every route is attached. A
// listener is valid when it is programmed; the ListenerSet is Accepted and
// Programmed while at least one is, with reason ListenersNotValid on
// Accepted when some are not.
func (s *listenerSetResult) status(w *world) gwv1.ListenerSetStatus {
	gen := s.set.Generation
	acceptedType, programmedType := string(gwv1.ListenerSetConditionAccepted), string(gwv1.ListenerSetConditionProgrammed)
	if !s.attached() {
		return gwv1.ListenerSetStatus{Conditions: stamp([]condition{
			falseCond(acceptedType, s.refusedReason, s.refusedMsg),
			falseCond(programmedType, s.refusedReason, s.refusedMsg),
		}, gen, w.opts.Now)}
	}
	st := gwv1.ListenerSetStatus{Listeners: []gwv1.ListenerEntryStatus{}}
	problemShape := ProfileOf(w.opts, s.gateway.class).Status.ProblemListenerConditions
	var invalid []string
	var entries [][]condition
	for _, l := range s.listeners {
		if !l.programmed {
			invalid = append(invalid, string(l.spec.Name))
		}
		cs := l.conditions()
		if problemShape {
			cs = l.problemConditions()
		}
		entries = append(entries, cs)
		st.Listeners = append(st.Listeners, gwv1.ListenerEntryStatus{
			Name:           l.spec.Name,
			SupportedKinds: l.kinds,
			AttachedRoutes: l.attachedRoutes,
			Conditions:     stamp(cs, gen, w.opts.Now),
		})
	}
	if problemShape {
		st.Conditions = stamp(listenerSetConditionsFrom(entries, s.gateway.name()), gen, w.opts.Now)
		return st
	}
	notValid := string(gwv1.ListenerSetReasonListenersNotValid)
	accepted := trueCond(acceptedType, string(gwv1.ListenerSetReasonAccepted), "ListenerSet is attached to Gateway "+s.gateway.name())
	programmed := trueCond(programmedType, string(gwv1.ListenerSetReasonProgrammed), "ListenerSet is programmed")
	switch {
	case len(invalid) == len(s.listeners):
		msg := "no listener is programmed; fix them (see status.listeners): " + strings.Join(invalid, ", ")
		accepted, programmed = falseCond(acceptedType, notValid, msg), falseCond(programmedType, notValid, msg)
	case len(invalid) > 0:
		accepted = trueCond(acceptedType, notValid, fmt.Sprintf("ListenerSet is attached to Gateway %s, but these listeners are not programmed (see status.listeners): %s",
			s.gateway.name(), strings.Join(invalid, ", ")))
	}
	st.Conditions = stamp([]condition{accepted, programmed}, gen, w.opts.Now)
	return st
}

// listenerSetParentFindings explains the ListenerSets that get no status: their
// parentRef names no Gateway, or a Gateway that is not in the input (whose
// listeners are then checked alone, see listenersAlone). One
// whose Gateway belongs to another controller is left to that Gateway's
// own finding. A Selector matched against a namespace without a Namespace
// object is reported as an assumption, as for routes.
func (w *world) listenerSetParentFindings(gateways map[types.NamespacedName]*gatewayResult) []diag.Finding {
	var out []diag.Finding
	for _, ls := range w.in.ListenerSets {
		ref := diag.ObjectRef{Kind: "ListenerSet", Namespace: ls.Namespace, Name: ls.Name}
		finding := func(sev diag.Severity, reason, msg string) {
			out = append(out, diag.Finding{Severity: sev, Object: ref, Source: w.in.Sources.Of(ref), Field: "spec.parentRef", Reason: reason, Message: msg})
		}
		gw, ok := parentGateway(ls)
		switch {
		case !ok:
			finding(diag.Error, diag.ReasonParentNotFound, "parentRef must name a Gateway (group gateway.networking.k8s.io, kind Gateway); the ListenerSet is attached nowhere")
		case w.gatewayElsewhere(gw):
			finding(diag.Info, diag.ReasonAttachmentNotChecked, fmt.Sprintf(
				"parentRef names Gateway %s, which is not in the input and assumed to exist elsewhere (%s); the ListenerSet's attachment to it, and its routes', is not checked, "+
					"its listeners are checked among themselves (give gwsim the Gateway, for example with --gateways, to check the rest)", gw, w.opts.OpenWorld.why("Gateway", gw.Namespace)))
			out = append(out, w.listenersAlone(ls, gw)...)
		case w.gateways[gw] == nil:
			finding(diag.Error, diag.ReasonParentNotFound, fmt.Sprintf("parentRef names Gateway %s, which is not in the input; the ListenerSet is attached nowhere", gw))
		case gateways[gw] != nil && w.selectsByAssumedLabels(gateways[gw].gateway, ls):
			finding(diag.Info, diag.ReasonAssumed, fmt.Sprintf(
				"namespace %s has no Namespace object in the input; Gateway %s's spec.allowedListeners selector was matched against its only certain label, kubernetes.io/metadata.name=%s",
				ls.Namespace, gw, ls.Namespace))
		}
	}
	return out
}

// selectsByAssumedLabels reports whether g selects ListenerSets by
// namespace labels and ls's namespace has no Namespace object.
func (w *world) selectsByAssumedLabels(g *gwv1.Gateway, ls *gwv1.ListenerSet) bool {
	al := g.Spec.AllowedListeners
	if al == nil || al.Namespaces == nil || al.Namespaces.From == nil || *al.Namespaces.From != gwv1.NamespacesFromSelector {
		return false
	}
	_, ok := w.namespaces[ls.Namespace]
	return !ok
}

// missingListenerSet explains a route parentRef whose ListenerSet is absent.
// A ListenerSet that exists but whose Gateway is absent or not gwsim's has
// its own finding.
func (w *world) missingListenerSet(r routeInfo, field, ns, name string) []diag.Finding {
	if _, ok := w.listenerSets.byKey[keyOf(ns, name)]; ok {
		return nil
	}
	if f, ok := w.assumedParent(r, field, "ListenerSet", ns, name); ok {
		return []diag.Finding{f}
	}
	return []diag.Finding{w.routeFinding(r, diag.Error, field, diag.ReasonParentNotFound,
		fmt.Sprintf("parentRef names ListenerSet %s/%s, which is not in the input; the route is attached nowhere", ns, name))}
}

// listenerSetHint explains a Gateway parentRef that selects no listener of
// the Gateway but would select one of its ListenerSets': routes reach a
// ListenerSet's listeners only through a ListenerSet parentRef (GEP-1713).
func listenerSetHint(ref gwv1.ParentReference, p *parentResult) string {
	if p.set != nil {
		return ""
	}
	for _, s := range p.gateway.sets {
		if len(selectListeners(ref, s.listeners)) > 0 {
			return fmt.Sprintf("; ListenerSet %s has one, but its listeners are reached only through a parentRef of kind ListenerSet", s.name())
		}
	}
	return ""
}
