package yamlin

import "unicode/utf8"

// blockScalar reads a literal (|) or folded (>) block scalar whose header
// is at at (its line already consumed) and writes its JSON string. It
// follows libyaml's scanner: the content indentation is that of the first
// non-empty line; a folded line break between two lines that do not start
// with a space becomes a space unless empty lines follow it; chomping
// decides the final line break (clip keeps one, strip none, keep all).
// Explicit indentation indicators, empty scalars and leading empty lines
// more indented than the content bail.
func (p *parser) blockScalar(at, end, parent int) bool {
	s := p.src
	literal := s[at] == '|'
	chomp := 0
	i := at + 1
	if i < end && (s[i] == '+' || s[i] == '-') {
		chomp = 1
		if s[i] == '-' {
			chomp = -1
		}
		i++
	}
	if !restIsBlank(s, i, end) {
		return false
	}
	indent, maxEmpty := -1, 0
	for q := p.pos; q < len(s); {
		e, n := p.lineAt(q)
		j := q
		for j < e && s[j] == ' ' {
			j++
		}
		if j < e {
			indent = j - q
			break
		}
		maxEmpty = max(maxEmpty, j-q)
		q = n
	}
	if indent < 1 || indent <= parent || maxEmpty > indent {
		return false
	}
	text := p.tmp[:0]
	leadingBreak, leadingBlank := false, false
	trailing := 0
	for p.pos < len(s) {
		e, n := p.lineAt(p.pos)
		j := p.pos
		for j < e && s[j] == ' ' {
			j++
		}
		sp := j - p.pos
		if j == e && sp <= indent {
			if n == e {
				break // last line, no line break
			}
			trailing++
			p.pos = n
			continue
		}
		if sp < indent {
			break
		}
		line := s[p.pos+indent : e]
		trailingBlank := line[0] == ' '
		if !literal && leadingBreak && !leadingBlank && !trailingBlank {
			if trailing == 0 {
				text = append(text, ' ')
			}
		} else if leadingBreak {
			text = append(text, '\n')
		}
		for ; trailing > 0; trailing-- {
			text = append(text, '\n')
		}
		leadingBlank = trailingBlank
		text = append(text, line...)
		leadingBreak = n > e
		p.pos = n
	}
	if chomp != -1 && leadingBreak {
		text = append(text, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			text = append(text, '\n')
		}
	}
	p.tmp = text
	p.out = appendString(p.out, text)
	return true
}

// flow reads a one-line flow collection at at: {} or [], or a sequence of
// quoted scalars and plain scalars made of letters, digits and "-._/".
func (p *parser) flow(at, end int) bool {
	s := p.src
	i := skipSpaces(s, at+1, end)
	if s[at] == '{' {
		if i < end && s[i] == '}' && restIsBlank(s, i+1, end) {
			p.out = append(p.out, "{}"...)
			return true
		}
		return false
	}
	p.out = append(p.out, '[')
	if i < end && s[i] == ']' {
		p.out = append(p.out, ']')
		return restIsBlank(s, i+1, end)
	}
	for first := true; ; first = false {
		if i >= end {
			return false
		}
		if !first {
			p.out = append(p.out, ',')
		}
		switch c := s[i]; {
		case c == '"' || c == '\'':
			close := skipSingle(s, i+1, end)
			if c == '"' {
				close = skipDouble(s, i+1, end)
			}
			if close < 0 || !p.quoted(s[i:close]) {
				return false
			}
			i = close
		case isAlnum(c):
			j := i
			for j < end && (isAlnum(s[j]) || s[j] == '-' || s[j] == '.' || s[j] == '_' || s[j] == '/') {
				j++
			}
			if !p.plain(s[i:j]) {
				return false
			}
			i = j
		default:
			return false
		}
		i = skipSpaces(s, i, end)
		if i >= end {
			return false
		}
		if s[i] == ']' {
			break
		}
		if s[i] != ',' {
			return false
		}
		i = skipSpaces(s, i+1, end)
	}
	p.out = append(p.out, ']')
	return restIsBlank(s, i+1, end)
}

func skipSpaces(s []byte, i, end int) int {
	for i < end && s[i] == ' ' {
		i++
	}
	return i
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string exactly as encoding/json writes
// it: HTML-safe (<, >, & escaped), control characters as \b \f \n \r \t
// or \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
