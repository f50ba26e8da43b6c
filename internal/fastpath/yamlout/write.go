package yamlout

import (
	"strings"
	"unicode/utf8"
)

// The writers below follow yaml.v2's yaml_emitter_write_*_scalar: they
// track the column in characters and fold at a single space once the line
// is past bestWidth, except in simple keys.

// writeChar copies the character at s[i] and returns the index after it.
func (e *emitter) writeChar(s string, i int) int {
	w := charWidth(s[i])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return i + w
}

// writeBreak copies the line break at s[i]; only '\n' is normalized.
func (e *emitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return i + 1
	}
	i = e.writeChar(s, i)
	e.column = 0
	return i
}

func (e *emitter) writePlain(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	if n := utf8.RuneCountInString(s); !allowBreaks || e.column+n <= bestWidth+1 || strings.IndexByte(s, ' ') < 0 {
		// No space can land past the preferred width: nothing folds.
		e.out = append(e.out, s...)
		e.column += n
		e.whitespace = false
		e.indention = false
		return
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && !(i+1 < len(s) && s[i+1] == ' ') {
				e.writeIndent()
				i++
			} else {
				i = e.writeChar(s, i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			i = e.writeChar(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeSingleQuoted(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && s[i+1] != ' ' {
				e.writeIndent()
				i++
			} else {
				i = e.writeChar(s, i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
			}
			i = e.writeChar(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeDoubleQuoted(s string, allowBreaks bool) {
	e.writeIndicator(`"`, true, false, false)
	// yaml.v2 tests for a byte order mark at the start of the string, not
	// at the character, so such a string is escaped in full.
	bom := strings.HasPrefix(s, "\uFEFF")
	spaces := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case bom || !isPrintable(s, i) || isBreak(s, i) || c == '"' || c == '\\':
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			e.writeEscape(r)
			spaces = false
		case c == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if s[i+1] == ' ' {
					e.put('\\')
				}
				i++
			} else {
				i = e.writeChar(s, i)
			}
			spaces = true
		default:
			i = e.writeChar(s, i)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeEscape writes r as a YAML double-quoted escape sequence, with the
// short forms yaml.v2 uses and upper-case hex otherwise.
func (e *emitter) writeEscape(r rune) {
	e.put('\\')
	var c byte
	switch r {
	case 0x00:
		c = '0'
	case 0x07:
		c = 'a'
	case 0x08:
		c = 'b'
	case 0x09:
		c = 't'
	case 0x0A:
		c = 'n'
	case 0x0B:
		c = 'v'
	case 0x0C:
		c = 'f'
	case 0x0D:
		c = 'r'
	case 0x1B:
		c = 'e'
	case '"':
		c = '"'
	case '\\':
		c = '\\'
	case 0x85:
		c = 'N'
	case 0xA0:
		c = '_'
	case 0x2028:
		c = 'L'
	case 0x2029:
		c = 'P'
	}
	if c != 0 {
		e.put(c)
		return
	}
	digits := 8
	switch {
	case r <= 0xFF:
		e.put('x')
		digits = 2
	case r <= 0xFFFF:
		e.put('u')
		digits = 4
	default:
		e.put('U')
	}
	for k := (digits - 1) * 4; k >= 0; k -= 4 {
		e.put("0123456789ABCDEF"[(r>>uint(k))&0x0F])
	}
}

func (e *emitter) writeLiteral(s string) {
	e.writeIndicator("|", true, false, false)
	if s[0] == ' ' || isBreak(s, 0) {
		e.writeIndicator("2", false, false, false) // indentation hint
	}
	if chomp := chompHint(s); chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreak(s, i) {
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		j := i + 1
		for j < len(s) && !isBreak(s, j) {
			j++
		}
		e.out = append(e.out, s[i:j]...)
		e.column += utf8.RuneCountInString(s[i:j])
		i = j
		e.indention = false
		breaks = false
	}
}

// chompHint is "-" to strip a text's missing final break, "+" to keep
// several (or a lone one), and "" to clip to the single final break.
func chompHint(s string) string {
	i := lastChar(s, len(s))
	switch {
	case !isBreak(s, i):
		return "-"
	case i == 0:
		return "+"
	case isBreak(s, lastChar(s, i)):
		return "+"
	}
	return ""
}

// lastChar is the index of the character that ends before byte end.
func lastChar(s string, end int) int {
	i := end - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}
