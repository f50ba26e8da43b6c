package cmd

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/translate/ir"
)

// routeChunkHosts is how many virtual hosts of a listener one chunk of
// the routes table holds: chunks are sized and written on every core.
const routeChunkHosts = 128

// routeChunk is a run of the routes table's rows: those of the virtual
// hosts [from, to) of one listener and, when l4 is set, the listener's
// TLS, TCP and UDP routes, which follow its virtual hosts.
type routeChunk struct {
	gateway, listener int
	from, to          int
	l4                bool
}

// routeChunks cuts the IR's rows into chunks, in row order.
func routeChunks(model ir.IR) []routeChunk {
	var out []routeChunk
	for g, gw := range model.Gateways {
		for l, lis := range gw.Listeners {
			n := len(lis.VirtualHosts)
			for from := 0; from < n || from == 0; from += routeChunkHosts {
				to := min(n, from+routeChunkHosts)
				out = append(out, routeChunk{gateway: g, listener: l, from: from, to: to, l4: to == n})
			}
		}
	}
	return out
}

// eachChunkRow calls f with each row of chunk c in turn; f must not keep
// r, which the next call overwrites.
func eachChunkRow(model ir.IR, c routeChunk, f func(r *routeRow)) {
	gw := &model.Gateways[c.gateway]
	l := &gw.Listeners[c.listener]
	sets := listenerSets(*l)
	var row routeRow
	for _, vh := range l.VirtualHosts[c.from:c.to] {
		for _, r := range vh.Routes {
			row = routeRow{
				Gateway:     gw.Name,
				Port:        l.Port,
				Protocol:    l.Protocol,
				Hostname:    vh.Hostname,
				Listener:    vh.Listener,
				ListenerSet: sets[vh.Listener],
				Match:       r.Match,
				Filters:     r.Filters,
				Action:      r.Action,
				Origin:      r.Origin,
			}
			f(&row)
		}
	}
	if c.l4 {
		for _, r := range l4RouteRows(gw.Name, *l, sets) {
			f(&r)
		}
	}
}

// chunkRows is the number of rows in chunk c.
func chunkRows(model ir.IR, c routeChunk) int {
	l := &model.Gateways[c.gateway].Listeners[c.listener]
	n := 0
	for _, vh := range l.VirtualHosts[c.from:c.to] {
		n += len(vh.Routes)
	}
	if c.l4 {
		n += len(l.TLSRoutes) + len(l.Forward)
	}
	return n
}

// tableChunk is the cells of a chunk's rows, kept as one string: the
// table's column widths are known only once every chunk is made.
type tableChunk struct {
	text  string
	ends  []int32 // ends[k] is where cell k ends in text
	sizes *columnSizes
}

// cellWriter collects the cells of a row one after the other.
type cellWriter struct {
	text []byte
	ends []int32 // ends[k] is where cell k ends in text
}

// cell appends a cell.
func (c *cellWriter) cell(s string) { c.appended(append(c.text, s...)) }

// appended ends a cell that was appended to c.text, giving text.
func (c *cellWriter) appended(text []byte) {
	c.text = text
	c.ends = append(c.ends, int32(len(text)))
}

// visible makes the row's cells' control characters visible
// (safetext.Visible), as table.stream does for other tables: cells hold
// manifest text, and a row must stay one line. Rows of printable ASCII,
// nearly all of them, are checked a byte at a time and left alone.
func (c *cellWriter) visible() {
	if printableASCII(c.text) {
		return
	}
	text := make([]byte, 0, len(c.text)+16)
	start := int32(0)
	for i, end := range c.ends {
		text = append(text, safetext.Visible(string(c.text[start:end]))...)
		start = end
		c.ends[i] = int32(len(text))
	}
	c.text = text
}

func printableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}

// cellBytes is about how long a routes table cell is, for sizing.
const cellBytes = 32

// makeTableChunk makes the cells of the rows that each yields, which
// cells writes to a cellWriter; rows is about how many there are. The
// cells are kept in one string, written row by row.
func makeTableChunk[R any](columns, rows int, each func(yield func(r R)), cells func(r R, c *cellWriter)) tableChunk {
	sizes := newColumnSizes(columns)
	var text strings.Builder
	text.Grow(rows * columns * cellBytes)
	ends := make([]int32, 0, rows*columns)
	row := &cellWriter{}
	each(func(r R) {
		row.text, row.ends = row.text[:0], row.ends[:0]
		cells(r, row)
		row.visible()
		start := int32(0)
		for i, end := range row.ends {
			sizes.addCell(i, utf8.RuneCount(row.text[start:end]))
			start = end
			ends = append(ends, int32(text.Len())+end)
		}
		text.Write(row.text)
	})
	return tableChunk{text: text.String(), ends: ends, sizes: sizes}
}

// tablePieces is table t whose rows are those of chunks, each made by
// makeChunk on every core, as pieces of output: the header, then a piece
// per chunk. The chunks' cells are kept until their piece is rendered. It
// also returns the number of rows.
func tablePieces(t table, chunks int, makeChunk func(i int) tableChunk) (pieces, int) {
	made := make([]tableChunk, chunks)
	forEachParallel(chunks, func(i int) { made[i] = makeChunk(i) })
	sizes := newColumnSizes(len(t.columns))
	if !t.noHeaders {
		sizes.add(t.header())
	}
	rows := 0
	for _, c := range made {
		sizes.merge(c.sizes)
		rows += len(c.ends) / len(t.columns)
	}
	widths := t.widths(sizes)
	return pieces{n: 1 + chunks, render: func(i int, out *bytes.Buffer) error {
		if i == 0 {
			if !t.noHeaders {
				out.Write(t.appendLine(nil, t.header(), widths))
			}
			return nil
		}
		c := &made[i-1]
		cells := make([]string, len(t.columns))
		var line []byte
		start := int32(0)
		for k, end := range c.ends {
			cells[k%len(cells)] = c.text[start:end]
			start = end
			if k%len(cells) == len(cells)-1 {
				line = t.appendLine(line[:0], cells, widths)
				out.Write(line)
			}
		}
		made[i-1] = tableChunk{} // what is written is not needed again
		return nil
	}}, rows
}

// forEachParallel calls f(i) for i in [0, n) on every core and returns
// when all are done; a panic in f is raised again on the caller's
// goroutine.
func forEachParallel(n int, f func(i int)) {
	var next atomic.Int64
	var first crash.First
	var wg sync.WaitGroup
	for range min(n, max(1, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			first.Catch(func() {
				for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
					f(i)
				}
			})
		})
	}
	wg.Wait()
	first.Raise()
}

// routesTablePieces is the routes table (renderRoutesTable) as pieces, or
// the line that says why there is none.
func routesTablePieces(model ir.IR, wide bool, view routesView) (pieces, error) {
	t, cells := routesTable(wide, view)
	chunks := routeChunks(model)
	row := func(i int) tableChunk {
		kept := func(yield func(r *routeRow)) {
			eachChunkRow(model, chunks[i], func(r *routeRow) {
				if view.keep(*r) {
					yield(r)
				}
			})
		}
		return makeTableChunk(len(t.columns), chunkRows(model, chunks[i]), kept, cells)
	}
	p, rows := tablePieces(t, len(chunks), row)
	if rows == 0 {
		return textPiece(noRoutesLine(view) + "\n"), nil
	}
	return p, nil
}

func noRoutesLine(view routesView) string {
	if view.filtered() {
		return "No routes match the filters."
	}
	return "No routes: no accepted Gateway has an attached route."
}
