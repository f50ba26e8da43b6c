package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// markOverlappingTLS records, on every accepted listener that terminates TLS,
// the first other such listener on the same port whose hostname overlaps
// its own. The ListenerConditionOverlappingTLSConfig godoc requires it:
// with HTTP/2 connection coalescing a client may reuse a connection made
// for one listener's hostname to send requests meant for the other's
// (GEP-3567). listeners is a Gateway's merged list: its own, then its
// attached ListenerSets' (GEP-1713 treats them as one set of listeners).
//
// Only hostnames are compared (OverlappingHostnames, which controllers
// MUST detect); certificates are not (OverlappingCertificates is a MAY).
// The condition is informational: the listener stays accepted and
// programmed. A listener of a ListenerSet is told only that some other
// listener of the Gateway overlaps, so that no ListenerSet learns what
// another one declares (as markPrecedenceConflict does).
func markOverlappingTLS(listeners []*listenerResult, gateway string) {
	for _, a := range listeners {
		if !terminatesTLS(a) {
			continue
		}
		for _, b := range listeners {
			if a == b || !terminatesTLS(b) || a.spec.Port != b.spec.Port ||
				!hostnamesOverlap(hostnameOf(a.spec.Hostname), hostnameOf(b.spec.Hostname)) {
				continue
			}
			a.overlap = overlapMessage(a, b, gateway)
			break
		}
	}
}

// terminatesTLS reports whether an accepted listener holds TLS
// configuration of its own: HTTPS, or TLS in Terminate mode. A Passthrough
// listener hands the handshake to the backend, so no Gateway TLS
// configuration of it can overlap.
func terminatesTLS(r *listenerResult) bool {
	if !r.accepted {
		return false
	}
	switch r.spec.Protocol {
	case gwv1.HTTPSProtocolType:
		return true
	case gwv1.TLSProtocolType:
		return r.spec.TLS == nil || r.spec.TLS.Mode == nil || *r.spec.TLS.Mode == gwv1.TLSModeTerminate
	}
	return false
}

// hostnamesOverlap reports whether some hostname is matched by both
// listener hostnames: "" matches every hostname, and a wildcard matches
// the names (and narrower wildcards) below it. It is symmetric.
func hostnamesOverlap(a, b string) bool {
	return a == "" || b == "" || hostnameMatches(a, b) || hostnameMatches(b, a)
}

// overlapMessage explains the overlap of a with b, naming b only when the
// same object declares both.
func overlapMessage(a, b *listenerResult, gateway string) string {
	const why = "a client may reuse a TLS connection made for one listener to send requests meant for the other; " +
		"give the listeners hostnames that do not overlap, or separate ports, if that matters"
	if a.owner == b.owner {
		return fmt.Sprintf("hostname %q overlaps hostname %q of listener %s on port %d: %s",
			displayHostname(a.spec.Hostname), displayHostname(b.spec.Hostname), b.spec.Name, a.spec.Port, why)
	}
	return fmt.Sprintf("hostname %q overlaps the hostname of another TLS listener of Gateway %s on port %d: %s",
		displayHostname(a.spec.Hostname), gateway, a.spec.Port, why)
}

// displayHostname shows an unset listener hostname as the wildcard it acts as.
func displayHostname(h *gwv1.Hostname) string {
	if h == nil {
		return "*"
	}
	return string(*h)
}

// overlapCondition is the OverlappingTLSConfig condition of a listener
// with overlapping TLS configuration; it is negative polarity and the godoc
// forbids setting it False, so listeners without an overlap get none.
func (r *listenerResult) overlapCondition() []condition {
	if r.overlap == "" {
		return nil
	}
	return []condition{trueCond(string(gwv1.ListenerConditionOverlappingTLSConfig), string(gwv1.ListenerReasonOverlappingHostnames), r.overlap)}
}
