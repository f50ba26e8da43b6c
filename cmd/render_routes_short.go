package cmd

import (
	"strconv"

	"github.com/gwsim/gwsim/translate/ir"
)

// shortActionCell renders the BACKENDS column of the default routes table:
// what a route does in as few characters as say it, with the details
// (backend filters, unused-weight notes, the 500's reason) left to -o wide.
func (r routeRow) shortActionCell() string { return string(r.appendShortActionCell(nil)) }

func (r routeRow) appendShortActionCell(b []byte) []byte {
	if r.L4 == nil {
		return appendShortAction(b, r.Action)
	}
	if r.L4.Reject != "" {
		b = appendShortAnswer(b, "reject", r.L4.Reject, r.L4.Backends)
	} else {
		b = appendShortBackends(b, r.L4.Backends)
	}
	if s := r.L4.SupersededBy; s != nil {
		b = append(appendOrigin(append(b, " (superseded by "...), *s), ')')
	}
	return b
}

// shortAction renders an HTTP or gRPC route's action: a redirect, a direct
// response, or its backends.
func shortAction(a ir.Action) string { return string(appendShortAction(nil, a)) }

func appendShortAction(b []byte, a ir.Action) []byte {
	switch {
	case a.Redirect != nil:
		return append(b, formatRedirect(*a.Redirect)...)
	case a.DirectResponse != nil:
		return appendShortAnswer(b, strconv.Itoa(a.DirectResponse.Status), a.DirectResponse.Reason, a.Backends)
	case len(a.Backends) > 0:
		return appendShortBackends(b, a.Backends)
	}
	return append(b, '-')
}

// appendShortAnswer appends a route that answers every request or
// connection itself: with the backends that explain why when it has any
// (each says why it is invalid), with the reason otherwise.
func appendShortAnswer(b []byte, answer, reason string, backends []ir.WeightedBackend) []byte {
	b = append(b, answer...)
	switch {
	case len(backends) > 0:
		return appendShortBackends(append(b, ": "...), backends)
	case reason != "":
		return append(append(append(b, " ("...), reason...), ')')
	}
	return b
}

// shortBackends renders `ns/svc:80`, with weights (`w=90`) only when
// several backends share the traffic or one takes none, and an invalid
// backend by its reference with its reason:
// `shop/recs:8080 (invalid: BackendNotFound)`.
func shortBackends(bs []ir.WeightedBackend) string { return string(appendShortBackends(nil, bs)) }

func appendShortBackends(b []byte, bs []ir.WeightedBackend) []byte {
	for i, be := range bs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, routeBackendName(be)...)
		if len(bs) > 1 || be.Weight == 0 {
			b = strconv.AppendInt(append(b, " w="...), int64(be.Weight), 10)
		}
		if be.Invalid != "" {
			b = append(append(append(b, " (invalid: "...), be.Invalid...), ')')
		}
	}
	return b
}
