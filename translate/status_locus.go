package translate

import (
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The functions here say which field of the input a finding drawn from a
// status condition is about (diag.Finding.Locus), so that its line is the
// field's, not the object's first: the listener or parentRef the status
// entry stands for, or, more precisely, the field the condition's message
// names first (`spec.rules[0].backendRefs[1]: Service ... does not
// exist`, a listener's `tls.certificateRefs[0]: ...`). Status carries
// only text, so the message's leading path is read back; gwsim writes
// every such message in that form.

// conditionLocus is the field a condition of the status entry at (a spec
// path, or "" for the object's own status) is about.
func conditionLocus(at, msg string) string {
	path := messagePath(msg)
	switch {
	case strings.HasPrefix(path, "spec."):
		return path
	case path != "" && at != "":
		return at + "." + path
	}
	return at
}

// messagePath is the field path a message starts with (`path: ...`, or
// `spec.parametersRef names ...`), or the first absolute one it gives in
// parentheses (`rule 1 (spec.rules[1].filters: ...)`) or after a colon
// (`address type not supported: spec.addresses[0] (...)`), or "". A path
// in parentheses that no colon follows may be another object's (a
// ListenerSet's condition quotes its Gateway's
// `spec.allowedListeners.namespaces.selector`), so it is not taken.
func messagePath(msg string) string {
	if head, _, ok := strings.Cut(msg, ": "); ok && isFieldPath(head) {
		return head
	}
	if head, _, ok := strings.Cut(msg, " "); ok && strings.HasPrefix(head, "spec.") && isFieldPath(head) {
		return head
	}
	for rest := msg; ; {
		i := strings.Index(rest, "spec.")
		if i < 0 {
			return ""
		}
		before := rest[:i]
		rest = rest[i:]
		head := rest
		if j := strings.IndexAny(rest, " :)"); j >= 0 {
			head = rest[:j]
		}
		after := rest[len(head):]
		switch {
		case !isFieldPath(head):
		case strings.HasSuffix(before, "(") && strings.HasPrefix(after, ": "):
			return head
		case strings.HasSuffix(before, ": ") && (after == "" || strings.HasPrefix(after, " (")):
			return head
		}
		rest = rest[len("spec."):]
	}
}

// isFieldPath reports whether s reads as a field path: names, dots and
// bracketed indexes or names, starting with a letter.
func isFieldPath(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z') {
		return false
	}
	for _, c := range []byte(s) {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".[]-_/", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// listenerField is the spec path of the listener called name, or "" when
// names has none of that name.
func listenerField(names []gwv1.SectionName, name gwv1.SectionName) string {
	for i, n := range names {
		if n == name {
			return "spec.listeners[" + strconv.Itoa(i) + "]"
		}
	}
	return ""
}

func gatewayListenerNames(g *gwv1.Gateway) []gwv1.SectionName {
	names := make([]gwv1.SectionName, len(g.Spec.Listeners))
	for i, l := range g.Spec.Listeners {
		names[i] = l.Name
	}
	return names
}

func listenerEntryNames(ls *gwv1.ListenerSet) []gwv1.SectionName {
	names := make([]gwv1.SectionName, len(ls.Spec.Listeners))
	for i, l := range ls.Spec.Listeners {
		names[i] = l.Name
	}
	return names
}

// parentRefField is the spec path of the parentRef a status.parents entry
// copies, or "" when the spec has none like it.
func parentRefField(refs []gwv1.ParentReference, p gwv1.ParentReference) string {
	for i, r := range refs {
		if sameParentRef(r, p) {
			return "spec.parentRefs[" + strconv.Itoa(i) + "]"
		}
	}
	return ""
}

func sameParentRef(a, b gwv1.ParentReference) bool {
	return a.Name == b.Name && eqPtr(a.Group, b.Group) && eqPtr(a.Kind, b.Kind) && eqPtr(a.Namespace, b.Namespace) &&
		eqPtr(a.SectionName, b.SectionName) && eqPtr(a.Port, b.Port)
}

func eqPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// backendTLSLocus is the field a BackendTLSPolicy's condition for an
// ancestor is about when its message names none: the targetRefs for a
// conflict with another policy or a target it cannot apply to (a UDP
// Service), the validation for a CA it cannot use.
func backendTLSLocus(c *metav1.Condition) string {
	switch {
	case c.Reason == string(gwv1.PolicyReasonConflicted):
		return "spec.targetRefs"
	case c.Reason == string(gwv1.BackendTLSPolicyReasonNoValidCACertificate),
		c.Reason == string(gwv1.PolicyReasonInvalid) && strings.Contains(c.Message, "CACertificate"):
		return "spec.validation"
	case c.Reason == string(gwv1.PolicyReasonInvalid):
		return "spec.targetRefs"
	}
	return ""
}
