package translate

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// markOverlappingTLS records, on every accepted listener that terminates TLS,
// the first other such listener on the same port whose TLS configuration
// overlaps its own. The ListenerConditionOverlappingTLSConfig godoc requires
// it: with HTTP/2 connection coalescing a client may reuse a connection made
// for one listener's hostname to send requests meant for the other's
// (GEP-3567). listeners is a Gateway's merged list: its own, then its
// attached ListenerSets' (GEP-1713 treats them as one set of listeners).
//
// Two checks, as the godoc names them: overlapping hostnames, which
// controllers MUST detect, and overlapping certificates, which they MAY:
// the certificates of the two listeners cover a common DNS name (one
// certificate shared by both, or a wildcard certificate covering the
// other's name), so that a connection whose certificate the client accepts
// for one listener's hostname is reused for the other's. When a listener
// has both, OverlappingCertificates is the reason, as the godoc says it
// SHOULD be. Certificates gwsim only assumes take part in no certificate
// overlap. The condition is informational: the listener stays accepted and
// programmed. A listener of a ListenerSet is told only that some other
// listener of the Gateway overlaps, so that no ListenerSet learns what
// another one declares (as markPrecedenceConflict does).
func markOverlappingTLS(listeners []*listenerResult, gateway string) {
	for _, a := range listeners {
		if !terminatesTLS(a) {
			continue
		}
		var byHost *listenerResult
		for _, b := range listeners {
			if a == b || !terminatesTLS(b) || a.spec.Port != b.spec.Port {
				continue
			}
			if x, y, ok := certificatesOverlap(a.certNames, b.certNames); ok {
				a.overlap = certOverlapMessage(a, b, x, y, gateway)
				a.overlapReason = string(gwv1.ListenerReasonOverlappingCertificates)
				byHost = nil
				break
			}
			if byHost == nil && hostnamesOverlap(hostnameOf(a.spec.Hostname), hostnameOf(b.spec.Hostname)) {
				byHost = b
			}
		}
		if byHost != nil {
			a.overlap = overlapMessage(a, byHost, gateway)
			a.overlapReason = string(gwv1.ListenerReasonOverlappingHostnames)
		}
	}
}

// certificatesOverlap reports whether some DNS name is covered by a name of
// a and a name of b, and returns the first such pair. It is symmetric up to
// the order of the pair.
func certificatesOverlap(a, b []string) (x, y string, ok bool) {
	for _, x := range a {
		for _, y := range b {
			if hostnameMatches(x, y) || hostnameMatches(y, x) {
				return x, y, true
			}
		}
	}
	return "", "", false
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
		if r.envoy {
			return false // Envoy Gateway compares HTTPS listeners alone
		}
		// The CRD defaults tls.mode to Terminate; the loader applies it.
		return r.spec.TLS != nil && deref(r.spec.TLS.Mode) == gwv1.TLSModeTerminate
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

// certOverlapMessage explains that a certificate of a, covering x, and a
// certificate of b, covering y, overlap; it names b only when the same
// object declares both.
func certOverlapMessage(a, b *listenerResult, x, y, gateway string) string {
	const why = "a client may reuse a TLS connection made for one listener to send requests meant for the other; " +
		"give each listener a certificate that covers only its own hostnames, or separate ports, if that matters"
	if a.owner == b.owner {
		return fmt.Sprintf("certificate for %q overlaps certificate for %q of listener %s on port %d: %s",
			x, y, b.spec.Name, a.spec.Port, why)
	}
	return fmt.Sprintf("certificate for %q overlaps the certificate of another TLS listener of Gateway %s on port %d: %s",
		x, gateway, a.spec.Port, why)
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
	return []condition{trueCond(string(gwv1.ListenerConditionOverlappingTLSConfig), r.overlapReason, r.overlap)}
}
