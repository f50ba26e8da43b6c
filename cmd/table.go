package cmd

import (
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gwsim/gwsim/internal/safetext"
)

// tableWidth is the width the default tables keep to: wide enough for a
// terminal beside an editor, and fixed rather than read from the terminal so
// that the same manifests print the same bytes everywhere (-o wide never
// elides).
const tableWidth = 120

// minElidedWidth is the narrowest an elided column gets: below it a cell
// says too little to be worth showing.
const minElidedWidth = 16

// elision says how a column's cells are cut when the table is too wide.
type elision int

const (
	// keepWhole columns are never cut (short, fixed-form cells).
	keepWhole elision = iota
	// cutEnd keeps the start of the cell and ends it with "…".
	cutEnd
	// cutLast columns name what a line is about (ROUTE; status's NAME
	// and PART): they are cut only when cutting the cutEnd columns is not
	// enough, and keep what follows the last '#' (a rule index, a section
	// name), so that `HTTPRoute ns/long-name#3` keeps its #3.
	cutLast
)

// column is one column of a table.
type column struct {
	header string
	elide  elision
}

// table lays out cells in columns two spaces apart, left-aligned, as
// kubectl does, with no trailing spaces. With maxWidth above 0, a layout
// wider than maxWidth narrows its elidable columns, the widest first, until
// it fits or they reach minElidedWidth.
type table struct {
	columns   []column
	rows      [][]string
	noHeaders bool
	maxWidth  int
}

// write prints the table's rows.
func (t table) write(w io.Writer) error {
	return t.stream(w, func(row func([]string)) {
		for _, cells := range t.rows {
			row(cells)
		}
	})
}

// stream prints the rows that each calls row with, in that order. It calls
// each twice: once to size the columns, once to write the lines, so that a
// table of many rows holds one row at a time, not every cell.
func (t table) stream(w io.Writer, each func(row func([]string))) error {
	sizes := newColumnSizes(len(t.columns))
	if !t.noHeaders {
		sizes.add(t.header())
	}
	each(visibleCells(sizes.add))
	widths := t.widths(sizes)
	var line []byte
	var err error
	writeLine := func(cells []string) {
		if err != nil {
			return
		}
		line = t.appendLine(line[:0], cells, widths)
		_, err = w.Write(line)
	}
	if !t.noHeaders {
		writeLine(t.header())
	}
	each(visibleCells(writeLine))
	return err
}

// visibleCells passes rows on with their cells' control characters made
// visible (safetext.Visible): cells hold manifest text, and a row must
// stay one line that starts with gwsim's text. Rows without any are
// passed as they are; the others are copied, not changed in place.
func visibleCells(row func([]string)) func([]string) {
	return func(cells []string) {
		var out []string
		for i, c := range cells {
			if v := safetext.Visible(c); v != c {
				if out == nil {
					out = slices.Clone(cells)
				}
				out[i] = v
			}
		}
		if out == nil {
			out = cells
		}
		row(out)
	}
}

// appendLine appends the line of cells, laid out in columns of widths,
// to line.
func (t table) appendLine(line []byte, cells []string, widths []int) []byte {
	for i, cell := range cells {
		var n int
		line, n = appendCell(line, cell, widths[i], t.columns[i].elide)
		if i < len(cells)-1 {
			for range widths[i] - n + 2 {
				line = append(line, ' ')
			}
		}
	}
	return append(line, '\n')
}

func (t table) header() []string {
	header := make([]string, len(t.columns))
	for i, c := range t.columns {
		header[i] = c.header
	}
	return header
}

// columnSizes counts, per column, the cells of each length in runes: all
// that choosing the widths needs to know of the cells.
type columnSizes struct {
	natural []int   // the widest cell
	count   [][]int // count[col][n] is the number of cells n runes long
}

func newColumnSizes(columns int) *columnSizes {
	return &columnSizes{natural: make([]int, columns), count: make([][]int, columns)}
}

func (s *columnSizes) add(cells []string) {
	for i, cell := range cells {
		s.addCell(i, utf8.RuneCountInString(cell))
	}
}

// addCell counts a cell n runes long in column i.
func (s *columnSizes) addCell(i, n int) {
	if n >= len(s.count[i]) {
		s.count[i] = append(s.count[i], make([]int, n+1-len(s.count[i]))...)
	}
	s.count[i][n]++
	s.natural[i] = max(s.natural[i], n)
}

// merge adds the cells that o counted.
func (s *columnSizes) merge(o *columnSizes) {
	for i, counts := range o.count {
		if len(counts) > len(s.count[i]) {
			s.count[i] = append(s.count[i], make([]int, len(counts)-len(s.count[i]))...)
		}
		for n, c := range counts {
			s.count[i][n] += c
		}
		s.natural[i] = max(s.natural[i], o.natural[i])
	}
}

// widths returns each column's width: its widest cell, unless the table
// must fit maxWidth. Then cutEnd columns are narrowed first, and cutLast
// ones (the columns a reader came for) only when narrowing the others is
// not enough. Among the layouts that fit, the one that cuts the fewest
// cells wins, then the one that cuts the fewest characters: a column of
// short names keeps them whole while one long cell elsewhere is cut.
func (t table) widths(sizes *columnSizes) []int {
	natural := sizes.natural
	if t.maxWidth <= 0 || sum(natural)+2*(len(natural)-1) <= t.maxWidth {
		return natural
	}
	for _, phase := range []elision{cutEnd, cutLast} {
		budget := t.maxWidth - 2*(len(natural)-1)
		var fit []int
		for i, c := range t.columns {
			if c.elide == keepWhole || c.elide > phase {
				budget -= natural[i]
			} else {
				fit = append(fit, i)
			}
		}
		if out, ok := t.fit(natural, sizes.count, fit, budget); ok {
			return out
		}
	}
	return natural
}

// cutCost is what a width costs a column: the cells it cuts and the
// characters they lose, compared in that order.
type cutCost struct{ cells, runes int }

func (a cutCost) plus(b cutCost) cutCost { return cutCost{a.cells + b.cells, a.runes + b.runes} }

func (a cutCost) less(b cutCost) bool {
	return a.cells < b.cells || (a.cells == b.cells && a.runes < b.runes)
}

// fit gives the columns in cols widths that sum to at most budget at the
// least cutCost, by dynamic programming over the budget; each column may
// take any width from its minimum to its widest cell.
// It reports false when even the minimum widths do not fit.
func (t table) fit(natural []int, counts [][]int, cols []int, budget int) ([]int, bool) {
	if budget < 0 {
		return nil, false
	}
	type state struct {
		ok     bool
		cost   cutCost
		widths []int
	}
	best := make([]state, budget+1)
	best[0] = state{ok: true}
	for _, i := range cols {
		least := min(natural[i], max(minElidedWidth, utf8.RuneCountInString(t.columns[i].header)))
		costs := cutCosts(counts[i], least, natural[i])
		next := make([]state, budget+1)
		for used, s := range best {
			if !s.ok {
				continue
			}
			for w := least; w <= natural[i]; w++ {
				if used+w > budget {
					continue
				}
				c := s.cost.plus(costs[w-least])
				if n := &next[used+w]; !n.ok || c.less(n.cost) {
					*n = state{ok: true, cost: c, widths: append(slices.Clone(s.widths), w)}
				}
			}
		}
		best = next
	}
	var pick *state
	for i := range best {
		if best[i].ok && (pick == nil || best[i].cost.less(pick.cost)) {
			pick = &best[i]
		}
	}
	if pick == nil {
		return nil, false
	}
	out := slices.Clone(natural)
	for k, i := range cols {
		out[i] = pick.widths[k]
	}
	return out, true
}

// cutCosts returns the cost of each width from least to most for a column
// whose cells of each length count[n] gives, so that a table of many rows
// costs one pass over its lengths.
func cutCosts(count []int, least, most int) []cutCost {
	costs := make([]cutCost, most-least+1)
	// Walking down from the widest, longer tracks the cells longer than w
	// and runes what they lose at w.
	longer, runes := 0, 0
	for w := most; w >= least; w-- {
		costs[w-least] = cutCost{longer, runes}
		if w < len(count) {
			longer += count[w]
		}
		runes += longer
	}
	return costs
}

func sum(ns []int) int {
	total := 0
	for _, n := range ns {
		total += n
	}
	return total
}

// cutCell shortens cell to width runes, marking the cut with "…".
func cutCell(cell string, width int, how elision) string {
	if how == keepWhole || utf8.RuneCountInString(cell) <= width {
		return cell
	}
	out, _ := appendCell(nil, cell, width, how)
	return string(out)
}

// appendCell appends cell to line, cut to width runes as cutCell cuts it,
// and returns the runes appended.
func appendCell(line []byte, cell string, width int, how elision) ([]byte, int) {
	n := utf8.RuneCountInString(cell)
	if how == keepWhole || n <= width {
		return append(line, cell...), n
	}
	if how == cutLast {
		if i := strings.LastIndexByte(cell, '#'); i > 0 {
			suffix := cell[i:]
			if keep := width - 1 - utf8.RuneCountInString(suffix); keep > 0 {
				line = append(line, cell[:runeOffset(cell, keep)]...)
				return append(append(line, "…"...), suffix...), width
			}
		}
	}
	line = append(line, cell[:runeOffset(cell, width-1)]...)
	return append(line, "…"...), width
}

// runeOffset is the byte offset of rune n of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
