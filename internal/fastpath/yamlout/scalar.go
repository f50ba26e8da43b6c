package yamlout

import "strings"

// analysis is what yaml.v2's emitter learns from a scalar's text before it
// picks a style: which styles can represent the text faithfully.
type analysis struct {
	multiline    bool // holds a line break
	blockPlain   bool // may be written plain in block context
	singleQuoted bool
	block        bool // may be written as a literal block
}

// analyze follows yaml.v2's yaml_emitter_analyze_scalar for block context.
// Plain style is ruled out by indicators at the start (or ": ", " #"
// anywhere), leading or trailing blanks and breaks, line breaks, and
// characters outside YAML's printable set; single quotes by a space next
// to a break or a special character; block style by trailing spaces or
// special characters.
func analyze(s string) analysis {
	if s == "" {
		return analysis{blockPlain: true, singleQuoted: true}
	}
	if isSimple(s) {
		return analysis{blockPlain: true, singleQuoted: true, block: true}
	}
	var (
		indicators, lineBreaks, special              bool
		leadingSpace, leadingBreak                   bool
		trailingSpace, trailingBreak                 bool
		breakSpace, spaceBreak, prevSpace, prevBreak bool
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		indicators = true
	}
	preceded := true // by whitespace
	for i, w := 0, 0; i < len(s); i += w {
		c := s[i]
		w = charWidth(c)
		followed := i+w >= len(s) || isBlank(s[i+w])
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				if followed {
					indicators = true
				}
			}
		} else if c == ':' && followed || c == '#' && preceded {
			indicators = true
		}
		if !isPrintable(s, i) {
			special = true
		}
		switch {
		case c == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i+w == len(s)
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak(s, i):
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i+w == len(s)
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		preceded = isBlankz(s, i)
	}
	a := analysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || indicators {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain = false
		a.singleQuoted = false
	}
	if spaceBreak || special {
		a.blockPlain = false
		a.singleQuoted = false
		a.block = false
	}
	return a
}

// isSimple is the common case of analyze, decided in one pass: printable
// ASCII with no blank at either end, no indicator at the start, and no
// ": ", final ':' or " #". Any style fits such a text.
func isSimple(s string) bool {
	switch s[0] {
	case ' ', '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', '-', ':':
		if len(s) == 1 || s[1] == ' ' {
			return false
		}
	}
	if s[len(s)-1] == ' ' || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7E:
			return false
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return false
		case c == '#' && i > 0 && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// isPlainWord is a common case of a string that yaml.v2 writes plain and
// as it is in every context, decided in one pass: letters, digits and
// "-./_:" (no blank, so it never folds), starting with a letter or '/'
// (no indicator, no number, no base 60 float) that does not make it a
// bool or null, and not ending in ':'.
func isPlainWord(s string) bool {
	if s == "" || s[len(s)-1] == ':' {
		return false
	}
	switch c := s[0]; {
	case c == '/':
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		if l := c | 0x20; (l == 'y' || l == 'n' || l == 't' || l == 'f' || l == 'o') && isSpecialWord(s) {
			return false
		}
	default:
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		mask := wordLow
		if c >= 64 {
			mask = wordHigh
		}
		if c >= 128 || mask&(1<<(c&63)) == 0 {
			return false
		}
	}
	return true
}

// wordLow and wordHigh are the bytes isPlainWord accepts after the first,
// as masks of bytes 0 to 63 and 64 to 127.
const (
	wordLow  uint64 = 1<<'-' | 1<<'.' | 1<<'/' | 1<<':' | (1<<10-1)<<'0'
	wordHigh uint64 = (1<<26-1)<<('A'-64) | (1<<26-1)<<('a'-64) | 1<<('_'-64)
)

// scalarStyle is how a scalar is written.
type scalarStyle uint8

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// stringStyle picks the style yaml.v2 writes a string in: it asks for
// literal style when the string has a newline, plain when the plain text
// reads back as the same string, and double quotes otherwise; then the
// emitter falls back to single or double quotes where the analysis rules
// the asked style out.
func stringStyle(s string, a analysis, ctx context) scalarStyle {
	style := styleDouble
	switch {
	case strings.IndexByte(s, '\n') >= 0:
		style = styleLiteral
	case plainIsString(s) && !isBase60Float(s):
		style = stylePlain
	}
	simpleKey := ctx == ctxSimpleKey
	if simpleKey && a.multiline {
		style = styleDouble
	}
	if style == stylePlain && (!a.blockPlain || s == "" && simpleKey) {
		style = styleSingle
	}
	if style == styleSingle && !a.singleQuoted {
		style = styleDouble
	}
	if style == styleLiteral && (!a.block || simpleKey) {
		style = styleDouble
	}
	return style
}

// stringScalar writes s in the style yaml.v2 picks for it. Continuation
// lines are indented one level deeper than the node, as yaml.v2 does.
func (e *emitter) stringScalar(s string, a analysis, ctx context) {
	saved := e.indent
	e.increaseIndent(true, false)
	allowBreaks := ctx != ctxSimpleKey
	switch stringStyle(s, a, ctx) {
	case stylePlain:
		e.writePlain(s, allowBreaks)
	case styleSingle:
		e.writeSingleQuoted(s, allowBreaks)
	case styleDouble:
		e.writeDoubleQuoted(s, allowBreaks)
	default:
		e.writeLiteral(s)
	}
	e.indent = saved
}

// charWidth is the length of the UTF-8 sequence that starts with byte c.
func charWidth(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// isPrintable is yaml.v2's test for characters it writes unescaped:
// #xA | [#x20-#x7E] | [#xA0-#xD7FF] | [#xE000-#xFFFD] less #xFEFF. Unlike
// the YAML spec it leaves out [#x10000-#x10FFFF], so yaml.v2 escapes
// emoji and other characters beyond the BMP.
func isPrintable(s string, i int) bool {
	c := s[i]
	switch {
	case c == 0x0A || 0x20 <= c && c <= 0x7E:
		return true
	case c == 0xC2:
		return i+1 < len(s) && s[i+1] >= 0xA0
	case 0xC2 < c && c < 0xED:
		return true
	case c == 0xED:
		return i+1 < len(s) && s[i+1] < 0xA0
	case c == 0xEE:
		return true
	case c == 0xEF:
		if i+2 >= len(s) {
			return false
		}
		return !(s[i+1] == 0xBB && s[i+2] == 0xBF) && !(s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF))
	}
	return false
}
