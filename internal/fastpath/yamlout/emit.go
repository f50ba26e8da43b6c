package yamlout

import (
	"io"
	"strconv"
	"strings"
)

// bestWidth is yaml.v2's preferred line width: plain and quoted scalars
// fold at a space once a line is longer.
const bestWidth = 80

// flushSize is how much output Encode buffers before writing.
const flushSize = 64 << 10

// emitter writes a tree as block YAML the way yaml.v2's emitter does. Its
// fields are the part of yaml.v2's emitter state that shapes the output:
// where the cursor is, the current indentation, and whether the last thing
// written was whitespace or indentation.
type emitter struct {
	t   *tree
	out []byte
	w   io.Writer
	err error

	column     int
	indent     int
	whitespace bool
	indention  bool

	// split is set while a Split's skeleton is encoded.
	split *splitter
}

// context is where a node sits: yaml.v2's emitter decides a sequence's
// indentation and a scalar's style from it.
type context uint8

const (
	ctxRoot context = iota
	ctxSequence
	ctxMapping
	ctxSimpleKey // a mapping key written without "? "
)

func newEmitter(t *tree, out []byte, w io.Writer) *emitter {
	return &emitter{t: t, out: out, w: w, indent: -1, whitespace: true, indention: true}
}

// document writes the root node and the final line break.
func (e *emitter) document(root node) error {
	e.node(root, ctxRoot)
	e.writeIndent()
	e.flush(0)
	return e.err
}

// flush hands the buffered output to the writer once it exceeds limit.
func (e *emitter) flush(limit int) {
	if e.w == nil || len(e.out) <= limit || e.err != nil {
		return
	}
	_, e.err = e.w.Write(e.out)
	e.out = e.out[:0]
}

func (e *emitter) node(n node, ctx context) {
	switch n.kind {
	case kindArray:
		if n.n == 0 {
			e.writeIndicator("[", true, true, false)
			e.writeIndicator("]", false, false, false)
			return
		}
		saved := e.indent
		e.increaseIndent(false, ctx == ctxMapping && !e.indention)
		for _, k := range e.t.kids[n.off : n.off+n.n] {
			e.writeIndent()
			e.writeIndicator("-", true, false, true)
			e.node(k, ctxSequence)
		}
		e.indent = saved
	case kindObject:
		if n.n == 0 {
			e.writeIndicator("{", true, true, false)
			e.writeIndicator("}", false, false, false)
			return
		}
		saved := e.indent
		e.increaseIndent(false, false)
		kids := e.t.kids[n.off : n.off+2*n.n]
		for j := 0; j < len(kids); j += 2 {
			key := e.t.text(kids[j])
			e.mappingKey(key, analyze(key))
			e.node(kids[j+1], ctxMapping)
		}
		e.indent = saved
	case kindString, kindDecoded:
		s := e.t.text(n)
		e.stringScalar(s, analyze(s), ctx)
	case kindNumber:
		e.number(e.t.src[n.off:n.off+n.n], ctx)
	case kindTrue:
		e.plainWord("true")
	case kindFalse:
		e.plainWord("false")
	default:
		e.plainWord("null")
	}
	e.flush(flushSize)
}

// mappingKey starts a mapping entry: a simple key and ":", or a "? " key
// when yaml.v2 cannot write it simple (a line break, more than 128 bytes).
func (e *emitter) mappingKey(key string, a analysis) {
	e.writeIndent()
	if !a.multiline && len(key) <= 128 {
		e.stringScalar(key, a, ctxSimpleKey)
		e.writeIndicator(":", false, false, false)
		return
	}
	e.writeIndicator("?", true, false, true)
	e.stringScalar(key, a, ctxMapping)
	e.writeIndent()
	e.writeIndicator(":", true, false, true)
}

// simpleKey starts a mapping entry whose key is plainKey (the key and its
// colon) when that is not empty, and as mappingKey writes key otherwise.
// plainKey is printable ASCII, written plain as a simple key: it never
// folds and is never quoted.
func (e *emitter) simpleKey(key string, a analysis, plainKey string) {
	if plainKey == "" {
		e.mappingKey(key, a)
		return
	}
	e.writeIndent()
	e.out = append(e.out, plainKey...)
	e.column += len(plainKey)
	e.whitespace = false
	e.indention = false
}

// number writes a JSON number as yaml.v2 resolves and prints it: integers
// that fit int64 or uint64 as they are (so "-0" becomes "0"), other
// numbers as the shortest float64, and the rare number that overflows
// float64 as a string.
func (e *emitter) number(s string, ctx context) {
	if strings.IndexAny(s, ".eE") < 0 {
		digits := len(s)
		if s[0] == '-' {
			digits--
		}
		switch {
		case s == "-0":
			e.plainWord("0")
			return
		case digits <= 18:
			e.plainWord(s)
			return
		}
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			e.plainWord(s)
			return
		}
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			e.plainWord(s)
			return
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		e.stringScalar(s, analyze(s), ctx)
		return
	}
	if !e.whitespace {
		e.put(' ')
	}
	start := len(e.out)
	e.out = strconv.AppendFloat(e.out, f, 'g', -1, 64)
	e.column += len(e.out) - start
	e.whitespace = false
	e.indention = false
}

// integer writes an integer as number writes its JSON text: as it is.
func (e *emitter) integer(i int64, unsigned bool) {
	if !e.whitespace {
		e.put(' ')
	}
	start := len(e.out)
	if unsigned {
		e.out = strconv.AppendUint(e.out, uint64(i), 10)
	} else {
		e.out = strconv.AppendInt(e.out, i, 10)
	}
	e.column += len(e.out) - start
	e.whitespace = false
	e.indention = false
}

// plainWord writes an ASCII scalar that is always plain and never folds
// (numbers, booleans, null), so its indentation does not matter.
func (e *emitter) plainWord(s string) {
	if !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, s...)
	e.column += len(s)
	e.whitespace = false
	e.indention = false
}

// quotedWord writes an ASCII scalar that yaml.v2 double-quotes and that
// holds no blank, quote or backslash: it is written as it is, in quotes.
func (e *emitter) quotedWord(b []byte) {
	if !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, '"')
	e.out = append(e.out, b...)
	e.out = append(e.out, '"')
	e.column += len(b) + 2
	e.whitespace = false
	e.indention = false
}

func (e *emitter) increaseIndent(flow, indentless bool) {
	switch {
	case e.indent < 0 && flow:
		e.indent = 2
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += 2
	}
}

func (e *emitter) put(c byte) {
	e.out = append(e.out, c)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

func (e *emitter) writeIndent() {
	if e.split != nil && e.split.pending {
		e.split.resume(e)
		return
	}
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || e.column == indent && !e.whitespace {
		e.putBreak()
	}
	for e.column < indent {
		n := min(indent-e.column, len(blanks))
		e.out = append(e.out, blanks[:n]...)
		e.column += n
	}
	e.whitespace = true
	e.indention = true
}

const blanks = "                                                                "

// writeIndicator writes ASCII punctuation such as "-", ":" or "?".
func (e *emitter) writeIndicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, s...)
	e.column += len(s)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}
