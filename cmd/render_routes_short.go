package cmd

import (
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// shortActionCell renders the BACKENDS column of the default routes table:
// what a route does in as few characters as say it, with the details
// (backend filters, unused-weight notes, the 500's reason) left to -o wide.
func (r routeRow) shortActionCell() string {
	if r.L4 == nil {
		return shortAction(r.Action)
	}
	out := shortBackends(r.L4.Backends)
	if r.L4.Reject != "" {
		out = shortAnswer("reject", r.L4.Reject, r.L4.Backends)
	}
	if s := r.L4.SupersededBy; s != nil {
		out += " (superseded by " + formatOrigin(*s) + ")"
	}
	return out
}

// shortAction renders an HTTP or gRPC route's action: a redirect, a direct
// response, or its backends.
func shortAction(a ir.Action) string {
	switch {
	case a.Redirect != nil:
		return formatRedirect(*a.Redirect)
	case a.DirectResponse != nil:
		return shortAnswer(strconv.Itoa(a.DirectResponse.Status), a.DirectResponse.Reason, a.Backends)
	case len(a.Backends) > 0:
		return shortBackends(a.Backends)
	}
	return "-"
}

// shortAnswer renders a route that answers every request or connection
// itself: with the backends that explain why when it has any (each says
// why it is invalid), with the reason otherwise.
func shortAnswer(answer, reason string, backends []ir.WeightedBackend) string {
	switch {
	case len(backends) > 0:
		return answer + ": " + shortBackends(backends)
	case reason != "":
		return answer + " (" + reason + ")"
	}
	return answer
}

// shortBackends renders `ns/svc:80`, with weights (`w=90`) only when
// several backends share the traffic or one takes none, and an invalid
// backend by its reference with its reason:
// `shop/recs:8080 (invalid: BackendNotFound)`.
func shortBackends(bs []ir.WeightedBackend) string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		s := routeBackendName(b)
		if len(bs) > 1 || b.Weight == 0 {
			s += " w=" + strconv.Itoa(int(b.Weight))
		}
		if b.Invalid != "" {
			s += " (invalid: " + b.Invalid + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}
