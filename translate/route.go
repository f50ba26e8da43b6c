package translate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// routeInfo is what every route kind shares for attachment: one code path
// attaches HTTPRoutes, GRPCRoutes, TLSRoutes, TCPRoutes and UDPRoutes.
type routeInfo struct {
	kind       gwv1.Kind
	meta       *metav1.ObjectMeta // the route's own, shared: routeInfo is passed by value
	parentRefs []gwv1.ParentReference
	hostnames  []gwv1.Hostname
}

func (r routeInfo) ref() diag.ObjectRef {
	return diag.ObjectRef{Kind: string(r.kind), Namespace: r.meta.Namespace, Name: r.meta.Name}
}

// attachment is a route attached to one listener, with the hostnames it
// serves there.
type attachment struct {
	listener  *listenerResult
	hostnames []string
}

// parentResult is the outcome of one parentRef.
type parentResult struct {
	index   int
	ref     gwv1.ParentReference // as stored (group and kind defaulted by the CRD), as status echoes it
	gateway *gatewayResult
	// set is the ListenerSet the parentRef names; nil for a Gateway parent.
	set      *listenerSetResult
	accepted condition
	attached []attachment
	// counted are attachments that count the route in their listeners'
	// attachedRoutes without attaching it (see rejectInvalidRoute).
	counted []attachment
	// refs, when set, replaces the route's ResolvedRefs condition on this
	// parent (a problem of the route on these listeners alone).
	refs *condition
}

// name says which object the parentRef names, for messages.
func (p *parentResult) name() string {
	if p.set != nil {
		return "ListenerSet " + p.set.name()
	}
	return "Gateway " + p.gateway.name()
}

// listeners are the listeners the parent holds: a Gateway's own
// spec.listeners (never those of its ListenerSets, GEP-1713), or a
// ListenerSet's listeners when it is attached to its Gateway.
func (p *parentResult) listeners() []*listenerResult {
	if p.set != nil {
		return p.set.listeners
	}
	return p.gateway.listeners
}

// attachRoute resolves every parentRef of r, to a Gateway or to a
// ListenerSet. parentRefs that name no Gateway of gwsim's in the input
// (directly or through a ListenerSet) produce findings, not parent results:
// in a cluster no controller would write status for them.
func (w *world) attachRoute(r routeInfo, gateways map[types.NamespacedName]*gatewayResult, sets map[types.NamespacedName]*listenerSetResult) ([]*parentResult, []diag.Finding) {
	results := make([]*parentResult, 0, len(r.parentRefs))
	var findings []diag.Finding
	if f, ok := w.noParentRefs(r); ok {
		findings = append(findings, f)
	}
	for i, ref := range r.parentRefs {
		field := "spec.parentRefs[" + strconv.Itoa(i) + "]"
		// The CRD defaults group and kind to a Gateway's; the loader
		// applies it.
		group, kind := string(deref(ref.Group)), string(deref(ref.Kind))
		if group != gwv1.GroupName || (kind != "Gateway" && kind != "ListenerSet") {
			findings = append(findings, w.routeFinding(r, diag.Warning, field, diag.ReasonNotSupportedYet,
				fmt.Sprintf("parentRef of kind %s/%s is not simulated yet; only Gateway and ListenerSet parents are", group, kind)))
			continue
		}
		ns := r.meta.Namespace
		if ref.Namespace != nil {
			ns = string(*ref.Namespace)
		}
		pr := &parentResult{index: i}
		ref.DeepCopyInto(&pr.ref)
		if kind == "ListenerSet" {
			lsr, ok := sets[keyOf(ns, string(ref.Name))]
			if !ok {
				findings = append(findings, w.missingListenerSet(r, field, ns, string(ref.Name))...)
				continue
			}
			pr.gateway, pr.set = lsr.gateway, lsr
			if lsr.gateway.choices.RoutesIgnoreListenerValidity && !lsr.attached() {
				continue // a ListenerSet its Gateway does not attach holds no listener a route can name
			}
		} else {
			gr, ok := gateways[keyOf(ns, string(ref.Name))]
			if !ok {
				findings = append(findings, w.missingParent(r, field, ns, string(ref.Name))...)
				continue
			}
			pr.gateway = gr
		}
		if pr.gateway.leftOut() {
			continue // like a Gateway that is not gwsim's: its own status says why
		}
		pr.accepted, pr.attached = w.attachToParent(r, ref, pr)
		results = append(results, pr)
		if f, ok := w.assumedNamespaceLabels(r, ref, pr, field); ok {
			findings = append(findings, f)
		}
	}
	return results, findings
}

// selectListeners returns the listeners that ref's sectionName and port
// name among those of its parent (all of them, the slice itself, when it
// names neither; callers only read it).
func selectListeners(ref gwv1.ParentReference, listeners []*listenerResult) []*listenerResult {
	if ref.SectionName == nil && ref.Port == nil {
		return listeners
	}
	var selected []*listenerResult
	for _, l := range listeners {
		if ref.SectionName != nil && *ref.SectionName != l.spec.Name {
			continue
		}
		if ref.Port != nil && *ref.Port != l.spec.Port {
			continue
		}
		selected = append(selected, l)
	}
	return selected
}

// assumedNamespaceLabels says so when a listener's namespace selector was
// evaluated against a namespace that has no Namespace object in the input:
// gwsim then knows only the label the API server always sets. The
// listeners are those ref selects of parent p.
func (w *world) assumedNamespaceLabels(r routeInfo, ref gwv1.ParentReference, p *parentResult, field string) (diag.Finding, bool) {
	if _, ok := w.namespaces[r.meta.Namespace]; ok {
		return diag.Finding{}, false
	}
	for _, l := range selectListeners(ref, p.listeners()) {
		ar := l.spec.AllowedRoutes
		if ar != nil && ar.Namespaces != nil && ar.Namespaces.From != nil && *ar.Namespaces.From == gwv1.NamespacesFromSelector {
			return w.routeFinding(r, diag.Info, field, diag.ReasonAssumed, fmt.Sprintf(
				"namespace %s has no Namespace object in the input; listener %s's selector was matched against its only certain label, %s=%s",
				r.meta.Namespace, l.spec.Name, "kubernetes.io/metadata.name", r.meta.Namespace)), true
		}
	}
	return diag.Finding{}, false
}

// missingParent explains a parentRef whose Gateway is absent (an error,
// unless the open world assumes it) or not gwsim's.
func (w *world) missingParent(r routeInfo, field, ns, name string) []diag.Finding {
	if _, ok := w.gateways[keyOf(ns, name)]; ok {
		return nil // the Gateway is not gwsim's: its own finding says so
	}
	if f, ok := w.assumedParent(r, field, "Gateway", ns, name); ok {
		return []diag.Finding{f}
	}
	return []diag.Finding{w.routeFinding(r, diag.Error, field, diag.ReasonParentNotFound,
		fmt.Sprintf("parentRef names Gateway %s/%s, which is not in the input; the route is attached nowhere", ns, name))}
}

func (w *world) routeFinding(r routeInfo, sev diag.Severity, field, reason, msg string) diag.Finding {
	return diag.Finding{Severity: sev, Object: r.ref(), Source: w.in.Sources.Of(r.ref()), Field: field, Reason: reason, Message: msg}
}

// attachToParent applies the spec's attachment rules in order: a
// ListenerSet parent must be attached to its Gateway (otherwise
// NotAllowedByListeners: it has no listener there); the parentRef's
// sectionName and port select listeners of the parent (none:
// NoMatchingParent); the listeners must be accepted and allow the route's
// kind and namespace (none: NotAllowedByListeners); the Gateway must be
// accepted (otherwise NotAllowedByListeners: none of its listeners is
// programmed); their hostnames must intersect the route's (none:
// NoMatchingListenerHostname).
func (w *world) attachToParent(r routeInfo, ref gwv1.ParentReference, p *parentResult) (condition, []attachment) {
	accepted := string(gwv1.RouteConditionAccepted)
	if p.set != nil && !p.set.attached() {
		return falseCond(accepted, string(gwv1.RouteReasonNotAllowedByListeners),
			fmt.Sprintf("%s is not attached to Gateway %s, so it has no listener to attach to: %s", p.name(), p.gateway.name(), p.set.refusedMsg)), nil
	}
	selected := selectListeners(ref, p.listeners())
	if len(selected) == 0 {
		return falseCond(accepted, string(gwv1.RouteReasonNoMatchingParent),
			fmt.Sprintf("%s has no listener%s%s", p.name(), describeSelection(ref), listenerSetHint(ref, p))), nil
	}
	allowed := selected
	if i := slices.IndexFunc(selected, func(l *listenerResult) bool { return !w.listenerAllows(l, r) }); i >= 0 {
		allowed = slices.Clone(selected[:i])
		for _, l := range selected[i+1:] {
			if w.listenerAllows(l, r) {
				allowed = append(allowed, l)
			}
		}
	}
	if len(allowed) == 0 {
		why := make([]string, len(selected))
		for i, l := range selected {
			why[i] = fmt.Sprintf("listener %s %s", l.spec.Name, w.listenerRefuses(l, r))
		}
		return falseCond(accepted, string(gwv1.RouteReasonNotAllowedByListeners), strings.Join(why, "; ")), nil
	}
	if !p.gateway.takesRoutes() {
		return falseCond(accepted, string(gwv1.RouteReasonNotAllowedByListeners), p.gateway.notAcceptedMessage()), nil
	}
	var attached []attachment
	for _, l := range allowed {
		if hosts := intersectHostnames(l.spec.Hostname, r.hostnames); len(hosts) > 0 {
			attached = append(attached, attachment{listener: l, hostnames: hosts})
		}
	}
	if len(attached) == 0 {
		return falseCond(accepted, string(gwv1.RouteReasonNoMatchingListenerHostname),
			fmt.Sprintf("no hostname of the route (%s) is covered by the hostname of listener(s) %s",
				joinHostnames(r.hostnames), listenerHostnames(allowed))), nil
	}
	return trueCond(accepted, string(gwv1.RouteReasonAccepted),
		"attached to "+p.name()+" listener(s) "+listenerNames(attached)+unservedNote(attached)), attached
}

// unservedNote tells a route attached to listeners that are not accepted
// that it is not served there: attachment does not depend on listener
// status, but only accepted listeners are programmed.
func unservedNote(as []attachment) string {
	var why []string
	for _, a := range as {
		if !a.listener.accepted {
			why = append(why, fmt.Sprintf("listener %s %s", a.listener.spec.Name, a.listener.notAccepted()))
		}
	}
	if len(why) == 0 {
		return ""
	}
	return "; the route is not served where a listener is not accepted: " + strings.Join(why, "; ")
}

// servedAttachments are the attachments to accepted listeners: the only
// ones the data plane serves. It returns as itself when every listener is
// accepted, as they usually are; callers only read the result.
func servedAttachments(as []attachment) []attachment {
	if !slices.ContainsFunc(as, func(a attachment) bool { return !a.listener.accepted }) {
		return as
	}
	var out []attachment
	for _, a := range as {
		if a.listener.accepted {
			out = append(out, a)
		}
	}
	return out
}

// listenerAllows is listenerRefuses(l, r) == "" without building the
// refusal: when another listener of the parent takes the route, nobody
// reads it.
func (w *world) listenerAllows(l *listenerResult, r routeInfo) bool {
	if !slices.ContainsFunc(l.kinds, func(k gwv1.RouteGroupKind) bool { return k.Kind == r.kind }) {
		return false
	}
	return w.listenerRefuses(l, r) == ""
}

// listenerRefuses says why listener l does not take route r, or "".
// allowedRoutes "Same" means the namespace of the object that declares the
// listener: a ListenerSet's namespace for its listeners.
//
// Whether l is accepted does not matter: "Listener or Route status does not
// impact successful attachment" (ListenerStatus.AttachedRoutes godoc), so a
// route that a conflicted or otherwise not-accepted listener selects is
// attached and counted there; only accepted listeners reach the IR
// (servedAttachments).
func (w *world) listenerRefuses(l *listenerResult, r routeInfo) string {
	if !slices.ContainsFunc(l.kinds, func(k gwv1.RouteGroupKind) bool { return k.Kind == r.kind }) {
		return fmt.Sprintf("does not allow %s: its protocol %s and allowedRoutes.kinds admit %s", r.kind, l.spec.Protocol, l.kindList())
	}
	// The CRD defaults allowedRoutes to namespaces from Same; the loader
	// applies it.
	var from gwv1.FromNamespaces
	var selector *metav1.LabelSelector
	if ar := l.spec.AllowedRoutes; ar != nil && ar.Namespaces != nil {
		from = deref(ar.Namespaces.From)
		selector = ar.Namespaces.Selector
	}
	switch from {
	case gwv1.NamespacesFromAll:
		return ""
	case gwv1.NamespacesFromSame:
		if r.meta.Namespace == l.owner.namespace {
			return ""
		}
		return fmt.Sprintf("only allows routes from namespace %s (allowedRoutes.namespaces.from: Same)", l.owner.namespace)
	case gwv1.NamespacesFromSelector:
		sel, err := metav1.LabelSelectorAsSelector(selector)
		if selector == nil {
			return "has allowedRoutes.namespaces.from: Selector but no selector; set allowedRoutes.namespaces.selector"
		}
		if err != nil {
			return fmt.Sprintf("has an invalid allowedRoutes.namespaces.selector: %v", err)
		}
		if sel.Matches(labels.Set(w.namespaceLabels(r.meta.Namespace))) {
			return ""
		}
		return fmt.Sprintf("does not select namespace %s (selector %s)", r.meta.Namespace, sel)
	}
	return fmt.Sprintf("allowedRoutes.namespaces.from %q is not supported", from)
}

func describeSelection(ref gwv1.ParentReference) string {
	var parts []string
	if ref.SectionName != nil {
		parts = append(parts, fmt.Sprintf("named %s", *ref.SectionName))
	}
	if ref.Port != nil {
		parts = append(parts, fmt.Sprintf("on port %d", *ref.Port))
	}
	return " " + strings.Join(parts, " ")
}

func joinHostnames(hs []gwv1.Hostname) string {
	s := make([]string, len(hs))
	for i, h := range hs {
		s[i] = string(h)
	}
	return strings.Join(s, ", ")
}

func listenerHostnames(ls []*listenerResult) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		h := hostnameOf(l.spec.Hostname)
		if h == "" {
			h = "(any)"
		}
		s[i] = fmt.Sprintf("%s=%s", l.spec.Name, h)
	}
	return strings.Join(s, ", ")
}

func listenerNames(as []attachment) string {
	if len(as) == 1 {
		return string(as[0].listener.spec.Name)
	}
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = string(a.listener.spec.Name)
	}
	return strings.Join(s, ", ")
}
