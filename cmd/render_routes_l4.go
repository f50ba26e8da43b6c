package cmd

import (
	"fmt"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// l4Row is what a TLSRoute, TCPRoute or UDPRoute row shows instead of an
// HTTP match and action: these routes match a connection, by SNI on a TLS
// listener or by the port alone on a TCP or UDP one.
type l4Row struct {
	// Match is "SNI <hostname>" for TLS routes and "port" for TCP and UDP.
	Match        string               `json:"match"`
	Backends     []ir.WeightedBackend `json:"backends,omitempty"`
	Reject       string               `json:"reject,omitempty"`
	SupersededBy *ir.Origin           `json:"supersededBy,omitempty"`
}

// l4RouteRows flattens one port's L4 routes in IR order: TLS routes most
// specific SNI first, then TCP and UDP forwarding. PORT/PROTO shows the
// Gateway listener's own protocol, since a TCP and a UDP listener may share
// a port number and the row belongs to one of them.
func l4RouteRows(gateway string, l ir.Listener, sets map[string]string) []routeRow {
	protocols := map[string]string{}
	for _, gl := range l.Listeners {
		protocols[gl.Name] = gl.Protocol
	}
	var rows []routeRow
	for _, r := range append(append([]ir.L4Route{}, l.TLSRoutes...), l.Forward...) {
		row := routeRow{
			Gateway: gateway, Port: l.Port, Protocol: protocols[r.Listener], Hostname: "*", Listener: r.Listener,
			ListenerSet: sets[r.Listener], Origin: r.Origin,
			L4: &l4Row{Match: "port", Backends: r.Backends, Reject: r.Reject, SupersededBy: r.SupersededBy},
		}
		if r.SNI != "" {
			row.Hostname, row.L4.Match = r.SNI, "SNI "+r.SNI
		}
		rows = append(rows, row)
	}
	return rows
}

// matchCell renders the MATCH column of any row.
func (r routeRow) matchCell() string { return string(r.appendMatchCell(nil)) }

func (r routeRow) appendMatchCell(b []byte) []byte {
	if r.L4 != nil {
		return append(b, r.L4.Match...)
	}
	return appendMatch(b, r.Match)
}

// actionCell renders the BACKENDS column of any row.
func (r routeRow) actionCell() string {
	if r.L4 == nil {
		return formatAction(r.Action)
	}
	return formatL4Action(*r.L4)
}

// formatL4Action renders where an L4 route sends connections: its weighted
// backends, `reject (invalid: why)` when it rejects every connection, and a
// note naming the older route that takes its traffic when it is superseded.
func formatL4Action(r l4Row) string {
	out := "reject (invalid: " + r.Reject + ")"
	if r.Reject == "" {
		parts := make([]string, 0, len(r.Backends))
		for _, b := range r.Backends {
			parts = append(parts, formatBackend(b))
		}
		out = strings.Join(parts, ", ")
	}
	if s := r.SupersededBy; s != nil {
		out += fmt.Sprintf(" (superseded by %s)", formatOrigin(*s))
	}
	return out
}
