package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// routeRow is one resolved route: where it is served (gateway, port,
// hostname), what it matches and what it does. The table and the yaml/json
// outputs print the same rows.
type routeRow struct {
	Gateway  string `json:"gateway"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
	Hostname string `json:"hostname"`
	Listener string `json:"listener,omitempty"`
	// ListenerSet is "namespace/name" of the ListenerSet the listener comes
	// from; empty for the Gateway's own listeners.
	ListenerSet string      `json:"listenerSet,omitempty"`
	Match       ir.Match    `json:"match,omitzero"`
	Filters     []ir.Filter `json:"filters,omitempty"`
	Action      ir.Action   `json:"action,omitzero"`
	Origin      ir.Origin   `json:"origin"`
	// L4 is set, and Match and Action are empty, on rows of TLSRoutes,
	// TCPRoutes and UDPRoutes (render_routes_l4.go).
	L4 *l4Row `json:"l4,omitempty"`
}

// routeRows flattens the IR into rows in IR order, which is already the
// precedence order within each virtual host.
func routeRows(model ir.IR) []routeRow {
	rows := []routeRow{}
	eachRouteRow(model, func(r *routeRow) { rows = append(rows, *r) })
	return rows
}

// eachRouteRow calls f with each row of routeRows in turn, without keeping
// them; f must not keep r, which the next call overwrites.
func eachRouteRow(model ir.IR, f func(r *routeRow)) {
	for _, c := range routeChunks(model) {
		eachChunkRow(model, c, f)
	}
}

// listenerSets maps the names of a port's listeners that come from a
// ListenerSet to that ListenerSet.
func listenerSets(l ir.Listener) map[string]string {
	out := map[string]string{}
	for _, gl := range l.Listeners {
		if gl.ListenerSet != "" {
			out[gl.Name] = gl.ListenerSet
		}
	}
	return out
}

// gatewayCell renders the GATEWAY column: the Gateway, and the ListenerSet
// whose listener serves the row, if any.
func (r routeRow) gatewayCell() string { return string(r.appendGatewayCell(nil)) }

func (r routeRow) appendGatewayCell(b []byte) []byte {
	b = append(b, r.Gateway...)
	if r.ListenerSet == "" {
		return b
	}
	return append(append(b, " via ListenerSet "...), r.ListenerSet...)
}

// routesDoc wraps the route rows so that yaml and json outputs are objects
// that can grow new keys without breaking consumers.
type routesDoc struct {
	Routes []routeRow `json:"routes"`
}

// renderRoutes prints the resolved routes that pass the view's filters as
// a table (text, wide) or as data.
func renderRoutes(w io.Writer, f format, model ir.IR, view routesView) error {
	switch f {
	case formatText, formatWide:
		return renderRoutesTable(w, model, f == formatWide, view)
	}
	rows := []routeRow{}
	eachRouteRow(model, func(r *routeRow) {
		if view.keep(*r) {
			rows = append(rows, *r)
		}
	})
	return writeData(w, f, routesDoc{Routes: rows})
}

// renderRoutesTable prints one line per route, or a single explanatory line
// when there is none. The default table fits tableWidth, with ROUTE next to
// MATCH; the wide one has every column and cuts nothing. The rows' cells
// are made on every core in chunks (routesTablePieces).
func renderRoutesTable(w io.Writer, model ir.IR, wide bool, view routesView) error {
	p, err := routesTablePieces(model, wide, view)
	if err != nil {
		return err
	}
	return writePieces(w, p)
}

// routesTable is the layout of the routes table and what fills a row.
func routesTable(wide bool, view routesView) (table, func(r *routeRow, c *cellWriter)) {
	t := table{noHeaders: view.NoHeaders}
	if wide {
		t.columns = []column{{header: "GATEWAY"}, {header: "PORT/PROTO"}, {header: "LISTENER"}, {header: "HOST"},
			{header: "MATCH"}, {header: "ROUTE"}, {header: "BACKENDS"}, {header: "FILTERS"}}
		return t, func(r *routeRow, c *cellWriter) {
			c.appended(r.appendGatewayCell(c.text))
			c.appended(r.appendPortCell(c.text))
			c.cell(orDash(r.Listener))
			c.cell(orDash(r.Hostname))
			c.appended(r.appendMatchCell(c.text))
			c.appended(appendOrigin(c.text, r.Origin))
			c.cell(r.actionCell())
			c.cell(filtersCell(r.Filters, r.Action))
		}
	}
	t.maxWidth = tableWidth
	t.columns = []column{{header: "GATEWAY", elide: cutEnd}, {header: "PORT/PROTO"}, {header: "HOST", elide: cutEnd},
		{header: "MATCH", elide: cutEnd}, {header: "ROUTE", elide: cutLast}, {header: "BACKENDS", elide: cutEnd}}
	return t, func(r *routeRow, c *cellWriter) {
		c.appended(r.appendGatewayCell(c.text))
		c.appended(r.appendPortCell(c.text))
		c.cell(orDash(r.Hostname))
		c.appended(r.appendMatchCell(c.text))
		c.appended(appendOrigin(c.text, r.Origin))
		c.appended(r.appendShortActionCell(c.text))
	}
}

// portCell renders the PORT/PROTO column.
func (r routeRow) portCell() string { return string(r.appendPortCell(nil)) }

func (r routeRow) appendPortCell(b []byte) []byte {
	return append(append(strconv.AppendInt(b, int64(r.Port), 10), '/'), r.Protocol...)
}

// formatMatch renders a match as `PathPrefix /api method=GET headers=x-a=1`;
// a match with no conditions (TCP, TLS and UDP routes) is `*`.
func formatMatch(m ir.Match) string { return string(appendMatch(nil, m)) }

// appendMatch appends formatMatch(m) to b.
func appendMatch(b []byte, m ir.Match) []byte {
	parts := 0 // parts are joined by a space, even an empty one
	sep := func() {
		if parts > 0 {
			b = append(b, ' ')
		}
		parts++
	}
	if m.PathType != "" || m.Path != "" {
		sep()
		start := len(b)
		b = append(append(append(b, m.PathType...), ' '), m.Path...)
		n := copy(b[start:], bytes.TrimSpace(b[start:]))
		b = b[:start+n]
	}
	if m.Method != "" {
		sep()
		b = append(append(b, "method="...), m.Method...)
	}
	if len(m.Headers) > 0 {
		sep()
		b = appendValueMatches(append(b, "headers="...), m.Headers)
	}
	if len(m.QueryParams) > 0 {
		sep()
		b = appendValueMatches(append(b, "query="...), m.QueryParams)
	}
	if parts == 0 {
		b = append(b, '*')
	}
	return b
}

// formatValueMatches renders exact matches as name=value and regular
// expressions as name~value.
func formatValueMatches(vms []ir.ValueMatch) string { return string(appendValueMatches(nil, vms)) }

// appendValueMatches appends formatValueMatches(vms) to b.
func appendValueMatches(b []byte, vms []ir.ValueMatch) []byte {
	for i, vm := range vms {
		if i > 0 {
			b = append(b, ',')
		}
		op := byte('=')
		if vm.Type == "RegularExpression" {
			op = '~'
		}
		b = append(append(append(b, vm.Name...), op), vm.Value...)
	}
	return b
}

// formatAction renders what a route does: a redirect, a direct response, or
// its weighted backends.
func formatAction(a ir.Action) string {
	switch {
	case a.Redirect != nil:
		return formatRedirect(*a.Redirect)
	case a.DirectResponse != nil:
		out := strconv.Itoa(a.DirectResponse.Status)
		if a.DirectResponse.Reason != "" {
			out += " (invalid: " + a.DirectResponse.Reason + ")"
		}
		if len(a.Backends) > 0 {
			out += ": " + formatAction(ir.Action{Backends: a.Backends})
		}
		return out
	case len(a.Backends) > 0:
		out := make([]string, 0, len(a.Backends))
		for _, b := range a.Backends {
			out = append(out, formatBackend(b))
		}
		return strings.Join(out, ", ")
	}
	return "-"
}

// formatBackend renders `ns/svc:80(w=1)`; a zero weight is marked unused and
// an invalid backend names its ResolvedRefs reason, since its share of
// requests gets a 500. The backend's own filters follow in brackets.
func formatBackend(b ir.WeightedBackend) string {
	notes := []string{fmt.Sprintf("w=%d", b.Weight)}
	if b.Weight == 0 {
		notes = append(notes, "unused")
	}
	if b.Invalid != "" {
		notes = append(notes, "invalid: "+b.Invalid)
	}
	out := fmt.Sprintf("%s(%s)", routeBackendName(b), strings.Join(notes, ","))
	if len(b.Filters) > 0 {
		out += "[" + formatFilters(b.Filters) + "]"
	}
	return out
}

// routeBackendName is the cluster a backend forwards to or, for an invalid
// one, its reference as written.
func routeBackendName(b ir.WeightedBackend) string {
	if b.Cluster != "" {
		return b.Cluster
	}
	return orDash(b.Ref)
}

// formatRedirect renders the redirect target as a URL; the parts the
// redirect keeps from the request are shown as {scheme}, {host} and {path}.
func formatRedirect(r ir.Redirect) string {
	scheme, host, path := r.Scheme, r.Hostname, r.Path
	if scheme == "" {
		scheme = "{scheme}"
	}
	if host == "" {
		host = "{host}"
	}
	if r.Port != 0 {
		host += ":" + strconv.Itoa(int(r.Port))
	}
	if r.PathType == "" && path == "" {
		path = "{path}"
	}
	url := fmt.Sprintf("redirect %d %s://%s%s", r.StatusCode, scheme, host, path)
	if r.PathType == "ReplacePrefixMatch" {
		url += " (prefix)"
	}
	return url
}

// formatFilters renders the filters in order with their settings.
func formatFilters(fs []ir.Filter) string {
	if len(fs) == 0 {
		return "-"
	}
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		var detail string
		switch {
		case f.RequestHeaderModifier != nil:
			detail = formatHeaderModifier(*f.RequestHeaderModifier)
		case f.ResponseHeaderModifier != nil:
			detail = formatHeaderModifier(*f.ResponseHeaderModifier)
		case f.URLRewrite != nil:
			detail = formatURLRewrite(*f.URLRewrite)
		default:
			detail = formatFeatureFilter(f)
		}
		if detail == "" {
			out = append(out, f.Type)
			continue
		}
		out = append(out, f.Type+"("+detail+")")
	}
	return strings.Join(out, ", ")
}

func formatHeaderModifier(h ir.HeaderModifier) string {
	var parts []string
	for _, hd := range h.Set {
		parts = append(parts, "set "+hd.Name+"="+hd.Value)
	}
	for _, hd := range h.Add {
		parts = append(parts, "add "+hd.Name+"="+hd.Value)
	}
	for _, name := range h.Remove {
		parts = append(parts, "remove "+name)
	}
	return strings.Join(parts, " ")
}

func formatURLRewrite(u ir.URLRewrite) string {
	var parts []string
	if u.Hostname != "" {
		parts = append(parts, "host="+u.Hostname)
	}
	if u.HostnameFromHeader != "" {
		parts = append(parts, "host=header:"+u.HostnameFromHeader)
	}
	if u.HostnameFromBackend {
		parts = append(parts, "host=backend")
	}
	switch u.PathType {
	case "ReplacePrefixMatch":
		parts = append(parts, "prefix="+u.Path)
	case "ReplaceFullPath":
		parts = append(parts, "path="+u.Path)
	case "ReplaceRegexMatch":
		parts = append(parts, "regex="+u.PathRegex+" -> "+u.Path)
	}
	return strings.Join(parts, " ")
}

// formatOrigin renders `HTTPRoute ns/name#rule`, so that every row leads
// back to the object and rule it came from (file:line belongs to findings:
// this table stays identical however the manifests are split).
func formatOrigin(o ir.Origin) string { return string(appendOrigin(nil, o)) }

// appendOrigin appends formatOrigin(o) to b.
func appendOrigin(b []byte, o ir.Origin) []byte {
	b = append(append(append(append(append(b, o.Kind...), ' '), o.Namespace...), '/'), o.Name...)
	return strconv.AppendInt(append(b, '#'), int64(o.Rule), 10)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
