// Package yamlin converts the YAML that manifests are written in to JSON
// quickly, without reflection or intermediate maps, for gwsim's loader.
// Its contract is narrow: when Convert says ok, its JSON is byte
// for byte what sigs.k8s.io/yaml.YAMLToJSONStrict returns for the same
// document; for anything outside the subset it knows, or anything doubtful,
// it says !ok and the caller takes the slow path. Bailing out is always
// safe, being wrong is not, so every rule here errs towards bailing.
//
// The subset: block mappings and sequences (compact "- key: value" items,
// sequences not indented under their key), comments, empty values, plain
// scalars resolved as yaml.v2 resolves them (YAML 1.1 booleans and nulls,
// integers in every syntax; floats bail), single- and double-quoted
// scalars, plain and quoted scalars folded over more lines when they start
// on their key's or dash's line (as YAML emitters wrap long strings: CRD
// descriptions and rules), literal and folded block scalars without an
// indentation indicator, and one-line flow sequences of scalars and empty
// flow collections. Anchors, aliases, tags, merge keys, complex keys,
// duplicate keys, tabs, directives, document markers, a scalar starting
// on the line after its key, and escaped line breaks all bail.
package yamlin

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// maxDepth bounds nesting; yaml.v2 accepts far more, but no manifest comes
// close and the recursion here should stay shallow.
const maxDepth = 500

// maxKey bounds a key's length in bytes: libyaml rejects simple keys longer
// than 1024 characters, and bytes never undercount characters.
const maxKey = 1000

// keysCap is the room made for the keys of the mappings being read at
// once, enough for any manifest's nesting.
const keysCap = 1024

// Convert returns the JSON of one YAML document (as offline/load splits
// them: no `---` or `...` lines) and ok, or ok=false when the document is
// outside the subset this package handles exactly.
func Convert(doc []byte) (js []byte, ok bool) {
	var c Converter
	return c.Convert(doc)
}

// Converter is Convert for many documents in turn: it keeps its scratch
// space (the stacks of keys and entries, where objects are rearranged)
// and the buffer it writes JSON into from one document to the next, so
// that a loader's worker does not allocate them for every document (the
// JSON was most of the bytes the loader allocated). The zero Converter is
// ready; it is not safe for concurrent use.
type Converter struct {
	ents      []entry
	keys, tmp []byte
	out       []byte
}

// maxKeptOut bounds the JSON buffer a Converter keeps: a rare huge
// document's buffer is left to the collector.
const maxKeptOut = 1 << 20

// Convert is the package's Convert, with c's scratch space. The JSON
// returned is valid until c converts the next document, which writes
// over it: a caller that keeps any of it must copy it.
func (c *Converter) Convert(doc []byte) (js []byte, ok bool) {
	if !clean(doc) {
		return nil, false
	}
	if c.ents == nil {
		c.ents = make([]entry, 0, 64)
		c.keys = make([]byte, 0, keysCap)
	}
	out := c.out[:0]
	if need := len(doc) + len(doc)/8 + 16; cap(out) < need {
		out = make([]byte, 0, need)
	}
	p := parser{
		src:  doc,
		out:  out,
		ents: c.ents[:0],
		keys: c.keys[:0],
		tmp:  c.tmp[:0],
	}
	ok = p.document()
	// The stacks may have grown; what they hold is dead.
	c.ents, c.keys, c.tmp = p.ents[:0], p.keys[:0], p.tmp[:0]
	if cap(p.out) <= maxKeptOut {
		c.out = p.out[:0]
	}
	if !ok {
		return nil, false
	}
	return p.out, true
}

// clean reports whether doc holds only characters libyaml reads without
// complaint and this package handles: printable UTF-8 without tabs, NEL,
// line or paragraph separators or byte order marks, CR only before LF, and
// no line starting a directive or a document marker.
func clean(doc []byte) bool {
	lineStart := true
	for i := 0; i < len(doc); {
		if lineStart {
			if doc[i] == '%' || bytes.HasPrefix(doc[i:], []byte("---")) || bytes.HasPrefix(doc[i:], []byte("...")) {
				return false
			}
			lineStart = false
		}
		// Most of a manifest is printable ASCII: eight bytes at a time.
		for i+8 <= len(doc) && printableASCII8(binary.LittleEndian.Uint64(doc[i:])) {
			i += 8
		}
		if i == len(doc) {
			break
		}
		b := doc[i]
		switch {
		case b >= 0x20 && b < 0x7f:
			i++
			continue
		case b == '\n':
			lineStart = true
			i++
			continue
		case b == '\r':
			if i+1 >= len(doc) || doc[i+1] != '\n' {
				return false
			}
			i++
			continue
		case b < utf8.RuneSelf:
			return false // tab, other controls, DEL
		}
		r, n := utf8.DecodeRune(doc[i:])
		if !printable(r) || (r == utf8.RuneError && n == 1) {
			return false
		}
		i += n
	}
	return true
}

// printableASCII8 reports whether each of the eight bytes in w is printable
// ASCII (0x20 to 0x7e), by the bit tricks of "any byte less than n" and
// "any byte equal to n": after the first test every byte is below 0x80,
// where both are exact.
func printableASCII8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if w&highs != 0 {
		return false
	}
	below := (w - 0x20*ones) &^ w & highs
	del := w ^ 0x7f*ones
	return below == 0 && (del-ones)&^del&highs == 0
}

// printable is libyaml's set of allowed non-ASCII characters, minus the
// ones YAML 1.1 treats as line breaks and the byte order mark.
func printable(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xFEFF:
		return false
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// parser reads one document line by line and writes JSON into out.
type parser struct {
	src []byte
	// pos is the start of the first line not yet consumed; a node that
	// starts in the middle of a line (after "- ") has its line at pos.
	pos int
	out []byte
	// ents and keys are stacks shared by the mappings being read: each
	// mapping's entries and raw keys sit above those of its ancestors.
	ents  []entry
	keys  []byte
	tmp   []byte
	depth int
}

// entry is one key/value pair of a mapping: seg is `"key":value` in out,
// key the raw (unescaped) key in keys.
type entry struct {
	segStart, segEnd int
	keyStart, keyEnd int
}

// lineAt returns the end of the line starting at start (before any CR LF)
// and the start of the next line.
func (p *parser) lineAt(start int) (end, next int) {
	i := bytes.IndexByte(p.src[start:], '\n')
	if i < 0 {
		return len(p.src), len(p.src)
	}
	end = start + i
	next = end + 1
	if end > start && p.src[end-1] == '\r' {
		end--
	}
	return end, next
}

// peek skips blank and comment lines and returns the indentation of the
// next content line (which then starts at pos), or -1 at the end.
func (p *parser) peek() int {
	for p.pos < len(p.src) {
		end, next := p.lineAt(p.pos)
		i := p.pos
		for i < end && p.src[i] == ' ' {
			i++
		}
		if i < end && p.src[i] != '#' {
			return i - p.pos
		}
		p.pos = next
	}
	return -1
}

func (p *parser) document() bool {
	ind := p.peek()
	if ind < 0 {
		p.out = append(p.out, "null"...)
		return true
	}
	if !p.node(ind, p.pos+ind, -1, true) {
		return false
	}
	return p.peek() < 0
}

// isDash reports whether a block sequence entry indicator is at i.
func (p *parser) isDash(i int) bool {
	if i >= len(p.src) || p.src[i] != '-' {
		return false
	}
	return i+1 == len(p.src) || isBreakOrSpace(p.src[i+1])
}

func isBreakOrSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\r' }

// node reads a block node starting at at, column col of the line at pos;
// parent is the column of the enclosing collection (-1 at the top). A node
// on its own line must be a collection: a scalar there could continue onto
// more lines.
func (p *parser) node(col, at, parent int, ownLine bool) bool {
	if p.depth++; p.depth > maxDepth {
		return false
	}
	defer func() { p.depth-- }()
	end, next := p.lineAt(p.pos)
	if p.isDash(at) {
		return p.sequence(col, at)
	}
	if colon := p.keyColon(at, end); colon >= 0 {
		return p.mapping(col, at)
	}
	if ownLine {
		return false
	}
	return p.scalar(at, end, next, parent)
}

// keyColon returns the index of the ':' that makes the text at at (up to
// end) a mapping key, or -1.
func (p *parser) keyColon(at, end int) int {
	s := p.src
	i := at
	switch s[at] {
	case '"':
		i = skipDouble(s, at+1, end)
	case '\'':
		i = skipSingle(s, at+1, end)
	default:
		for ; i < end; i++ {
			if s[i] == ':' && (i+1 == end || s[i+1] == ' ') {
				return i
			}
			if s[i] == '#' && i > at && s[i-1] == ' ' {
				return -1
			}
		}
		return -1
	}
	if i < 0 || i >= end || s[i] != ':' || (i+1 < end && s[i+1] != ' ') {
		return -1
	}
	return i
}

// skipDouble returns the index just past the closing quote of a
// double-quoted scalar whose content starts at i, or -1 if it does not
// close on this line.
func skipDouble(s []byte, i, end int) int {
	for ; i < end; i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipSingle is skipDouble for single quotes, where two quotes in a row
// stand for one.
func skipSingle(s []byte, i, end int) int {
	for ; i < end; i++ {
		if s[i] == '\'' {
			if i+1 < end && s[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// restIsBlank reports whether s[i:end] holds only spaces and, after at
// least one space, a comment.
func restIsBlank(s []byte, i, end int) bool {
	start := i
	for i < end && s[i] == ' ' {
		i++
	}
	return i == end || (s[i] == '#' && i > start)
}
