package yamlin

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// resolved is what a plain scalar means to yaml.v2 decoding into
// interface{}.
type resolved int

const (
	resolvedString resolved = iota
	resolvedNull
	resolvedTrue
	resolvedFalse
	resolvedInt
	// resolvedOther is a float, an integer beyond int64, or a merge key:
	// the slow path handles those.
	resolvedOther
)

// resolvePlain resolves a plain scalar as yaml.v2's resolver does for an
// untagged scalar: the YAML 1.1 words first, then, by the first byte, a
// float for '.', a number for a sign or digit, and a string otherwise.
// Timestamps need no case of their own: yaml.v2 hands them to interface{}
// as their original string, and nothing that starts like one ("dddd-")
// parses as a number.
func resolvePlain(s []byte) (resolved, int64) {
	switch string(s) {
	case "", "~", "null", "Null", "NULL":
		return resolvedNull, 0
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return resolvedTrue, 0
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return resolvedFalse, 0
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return resolvedOther, 0
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(string(s), 64); err == nil {
			return resolvedOther, 0
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return resolveNumber(s)
	}
	return resolvedString, 0
}

// resolveNumber follows yaml.v2 for a scalar starting with a sign or a
// digit: underscores dropped, then an integer in any Go base syntax, then
// (bailing on them) an unsigned integer, a float or a binary literal.
func resolveNumber(s []byte) (resolved, int64) {
	if len(s) > 64 {
		return resolvedOther, 0
	}
	var buf [64]byte
	plain := buf[:0]
	for _, c := range s {
		if c != '_' {
			plain = append(plain, c)
		}
	}
	// Only those bytes can make an integer; checking first spares strconv
	// the error it allocates for names and addresses.
	if onlyIntBytes(plain) {
		if n, err := strconv.ParseInt(string(plain), 0, 64); err == nil {
			return resolvedInt, n
		}
		if _, err := strconv.ParseUint(string(plain), 0, 64); err == nil {
			return resolvedOther, 0
		}
	}
	if looksFloat(plain) || bytes.HasPrefix(plain, []byte("0b")) || bytes.HasPrefix(plain, []byte("-0b")) {
		return resolvedOther, 0
	}
	return resolvedString, 0
}

// onlyIntBytes reports whether s holds only bytes that strconv.ParseInt
// and ParseUint accept with base 0 (once underscores are gone): signs, the
// base prefixes' letters and hex digits.
func onlyIntBytes(s []byte) bool {
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == 'x', c == 'X', c == 'o', c == 'O', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

// looksFloat matches yaml.v2's float syntax:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func looksFloat(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// plain writes the JSON of a plain scalar.
func (p *parser) plain(text []byte) bool {
	switch r, n := resolvePlain(text); r {
	case resolvedString:
		p.out = appendString(p.out, text)
	case resolvedNull:
		p.out = append(p.out, "null"...)
	case resolvedTrue:
		p.out = append(p.out, "true"...)
	case resolvedFalse:
		p.out = append(p.out, "false"...)
	case resolvedInt:
		p.out = appendInt(p.out, n)
	default:
		return false
	}
	return true
}

// plainContinued returns the text of a plain scalar whose first line's
// text is first (without a comment) and which may go on, from pos, on
// lines indented deeper than parent, the column of the enclosing
// collection: each line joins the text after one space, or after a line
// feed for each blank line between them, as libyaml folds plain scalars
// (YAML emitters wrap long strings so: CRD descriptions, annotations). It
// leaves pos after the last line it takes. ok is false, to bail, for a
// comment between lines of it and for a line holding what would end the
// scalar early (": ", " #", a trailing ':'), which libyaml rejects.
func (p *parser) plainContinued(first []byte, parent int) (text []byte, ok bool) {
	s := p.src
	text = first
	folded := false
	blank := 0 // blank lines since the last content line
	for pos := p.pos; pos < len(s); {
		i := pos
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i-pos <= parent && i < len(s) && s[i] != '\n' && s[i] != '\r' {
			return text, true // the usual case: the next line is no deeper
		}
		end, next := p.lineAt(pos)
		switch {
		case i >= end:
			blank++
			pos = next
			continue
		case s[i] == '#':
			// libyaml ends the scalar at a comment; another line of it
			// after the comment is an error.
			if ind := p.peekFrom(next); ind > parent {
				return nil, false
			}
			return text, true
		}
		// Inside a plain scalar, libyaml reads indicators at the start of
		// a line ('-', '|', '"', ...) as text; only ": " and " #" end it.
		line := bytes.TrimRight(s[i:end], " ")
		if line[len(line)-1] == ':' || bytes.Contains(line, []byte(": ")) || bytes.Contains(line, []byte(" #")) {
			return nil, false
		}
		if !folded {
			p.tmp = append(p.tmp[:0], first...)
			folded = true
		}
		if blank == 0 {
			p.tmp = append(p.tmp, ' ')
		}
		for ; blank > 0; blank-- {
			p.tmp = append(p.tmp, '\n')
		}
		p.tmp = append(p.tmp, line...)
		text = p.tmp
		pos = next
		p.pos = next
	}
	return text, true
}

// quotedLines reads a quoted scalar that starts at at and does not close
// on its line, as libyaml folds one: trailing spaces of a line dropped,
// the leading spaces of the next, the line break turned into a space, or
// into a line feed for each blank line between. Escapes are decoded line
// by line; a line of a double-quoted scalar ending in a backslash (an
// escaped line break, or a doubtful trailing space) bails. So does a line
// not indented deeper than parent (the enclosing collection's column), an
// end of input before the closing quote, and anything but a comment after
// it.
func (p *parser) quotedLines(at, parent int) bool {
	s := p.src
	text := p.tmp[:0]
	defer func() { p.tmp = text }()
	end, next := p.lineAt(p.pos)
	i := at + 1
	for {
		var close int
		var ok bool
		if text, close, ok = quotedLine(text, s, i, end, s[at] == '"'); !ok {
			return false
		}
		if close >= 0 {
			if !restIsBlank(s, close, end) {
				return false
			}
			p.out = appendString(p.out, text)
			p.pos = next
			return true
		}
		// The next line with content continues the scalar.
		blank := 0
		for {
			if next >= len(s) {
				return false
			}
			start := next
			end, next = p.lineAt(start)
			i = start
			for i < end && s[i] == ' ' {
				i++
			}
			if i < end {
				if i-start <= parent {
					return false
				}
				break
			}
			blank++
		}
		if blank == 0 {
			text = append(text, ' ')
		}
		for ; blank > 0; blank-- {
			text = append(text, '\n')
		}
	}
}

// quotedLine appends the content of one line of a quoted scalar, from i
// to the closing quote or the line's end (less its trailing spaces), to
// text. close is the index after the closing quote, or -1 when the
// scalar goes on.
func quotedLine(text, s []byte, i, end int, double bool) (_ []byte, close int, ok bool) {
	if double {
		close = skipDouble(s, i, end)
		body := s[i:max(close-1, i)]
		if close < 0 {
			body = bytes.TrimRight(s[i:end], " ")
			if len(body) > 0 && body[len(body)-1] == '\\' {
				return text, -1, false
			}
		}
		text, ok = appendDouble(text, body)
		return text, close, ok
	}
	lineStart := len(text)
	for ; i < end; i++ {
		switch {
		case s[i] != '\'':
			text = append(text, s[i])
		case i+1 < end && s[i+1] == '\'':
			text = append(text, '\'')
			i++
		default:
			return text, i + 1, true
		}
	}
	for len(text) > lineStart && text[len(text)-1] == ' ' {
		text = text[:len(text)-1]
	}
	return text, -1, true
}

// peekFrom is peek from the line at pos, without moving pos.
func (p *parser) peekFrom(pos int) int {
	saved := p.pos
	p.pos = pos
	ind := p.peek()
	p.pos = saved
	return ind
}

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// quoted writes the JSON string of a one-line quoted scalar q, quotes
// included.
func (p *parser) quoted(q []byte) bool {
	body := q[1 : len(q)-1]
	if q[0] == '\'' {
		if bytes.IndexByte(body, '\'') < 0 {
			p.out = appendString(p.out, body)
			return true
		}
		p.tmp = appendSingle(p.tmp[:0], body)
	} else {
		if bytes.IndexByte(body, '\\') < 0 {
			p.out = appendString(p.out, body)
			return true
		}
		var ok bool
		if p.tmp, ok = appendDouble(p.tmp[:0], body); !ok {
			return false
		}
	}
	p.out = appendString(p.out, p.tmp)
	return true
}

// appendSingle appends the value of a single-quoted scalar's body.
func appendSingle(dst, body []byte) []byte {
	for i := 0; i < len(body); i++ {
		dst = append(dst, body[i])
		if body[i] == '\'' {
			i++ // '' is one quote
		}
	}
	return dst
}

// appendDouble appends the value of a double-quoted scalar's body, with
// libyaml's escapes. ok is false for an escape libyaml rejects.
func appendDouble(dst, body []byte) ([]byte, bool) {
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i == len(body) {
			return dst, false
		}
		size := 0
		switch body[i] {
		case '0':
			dst = append(dst, 0)
		case 'a':
			dst = append(dst, '\a')
		case 'b':
			dst = append(dst, '\b')
		case 't':
			dst = append(dst, '\t')
		case 'n':
			dst = append(dst, '\n')
		case 'v':
			dst = append(dst, '\v')
		case 'f':
			dst = append(dst, '\f')
		case 'r':
			dst = append(dst, '\r')
		case 'e':
			dst = append(dst, 0x1b)
		case ' ', '"', '\'', '\\':
			dst = append(dst, body[i])
		case 'N':
			dst = utf8.AppendRune(dst, 0x85)
		case '_':
			dst = utf8.AppendRune(dst, 0xA0)
		case 'L':
			dst = utf8.AppendRune(dst, 0x2028)
		case 'P':
			dst = utf8.AppendRune(dst, 0x2029)
		case 'x':
			size = 2
		case 'u':
			size = 4
		case 'U':
			size = 8
		default:
			return dst, false
		}
		if size == 0 {
			continue
		}
		if i+1+size > len(body) {
			return dst, false
		}
		v, ok := hexValue(body[i+1 : i+1+size])
		if !ok || v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
			return dst, false
		}
		dst = utf8.AppendRune(dst, rune(v))
		i += size
	}
	return dst, true
}

func hexValue(h []byte) (int, bool) {
	v := 0
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
