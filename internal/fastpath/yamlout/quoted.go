package yamlout

import (
	"errors"
	"unicode/utf8"
)

// decodeString reads a JSON string body that starts at byte start (after
// the opening quote) the way yaml.v2 reads a double-quoted scalar, and
// leaves pos after the closing quote. The two readings differ where YAML is
// stricter or folds:
//   - raw characters outside YAML's printable set (DEL, C1 controls but
//     U+0085, U+FFFE, U+FFFF) and invalid UTF-8 fail;
//   - the escapes \/ and surrogate \u codes fail;
//   - a raw line break (U+0085, U+2028, U+2029) folds with the blanks
//     around it: one U+0085 becomes a space, more become newlines;
//   - "---" or "..." right after a raw line break, followed by a blank or a
//     break, fails as a document marker.
//
// broken reports a raw line break.
func (p *parser) decodeString(start int) (s string, broken bool, err error) {
	src := p.src
	out := p.buf[:0]
	var f folder
	i := start
	lineStart := false
	for {
		if lineStart && i+3 < len(src) && (src[i:i+3] == "---" || src[i:i+3] == "...") && isBlankz(src, i+3) {
			return "", false, errors.New("yaml: found unexpected document indicator")
		}
		// Non-blank characters.
		for i < len(src) && !isBlankz(src, i) && src[i] != '"' {
			lineStart = false
			if out, i, err = decodeChar(out, src, i); err != nil {
				return "", false, err
			}
		}
		switch {
		case i >= len(src):
			return "", false, errSyntax
		case src[i] == '"':
			p.pos = i + 1
			p.buf = out
			return string(out), broken, nil
		case src[i] == 0:
			return "", false, errors.New("yaml: control characters are not allowed")
		}
		// Blanks and raw line breaks.
		for i < len(src) && (isBlank(src[i]) || isBreak(src, i)) {
			if isBlank(src[i]) {
				f.blank(src[i])
				i++
				lineStart = false
				continue
			}
			i = f.lineBreak(src, i)
			broken, lineStart = true, true
		}
		out = f.join(out)
	}
}

// decodeChar appends the character or escape sequence at src[i] to out and
// returns the index after it.
func decodeChar(out []byte, src string, i int) ([]byte, int, error) {
	if src[i] != '\\' {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return nil, 0, errors.New("yaml: invalid UTF-8 in input")
		}
		if !yamlAllowed(r) {
			return nil, 0, errors.New("yaml: control characters are not allowed")
		}
		return append(out, src[i:i+size]...), i + size, nil
	}
	if i+1 >= len(src) {
		return nil, 0, errSyntax
	}
	var r rune
	switch src[i+1] {
	case 'b':
		r = '\b'
	case 'f':
		r = '\f'
	case 'n':
		r = '\n'
	case 'r':
		r = '\r'
	case 't':
		r = '\t'
	case '"':
		r = '"'
	case '\\':
		r = '\\'
	case 'u':
		if i+6 > len(src) {
			return nil, 0, errSyntax
		}
		v, ok := hex4(src[i+2 : i+6])
		switch {
		case !ok:
			return nil, 0, errSyntax
		case 0xD800 <= v && v <= 0xDFFF:
			return nil, 0, errors.New("yaml: found invalid Unicode character escape code")
		}
		return utf8.AppendRune(out, v), i + 6, nil
	default:
		return nil, 0, errors.New("yaml: found unknown escape character")
	}
	return append(out, byte(r)), i + 2, nil
}

// folder joins a run of blanks and raw line breaks inside a double-quoted
// scalar as YAML does: blanks alone stay; blanks around breaks go; a
// single line feed (CR, LF, CRLF or U+0085) becomes a space, and from two
// breaks on, the breaks after the first stay, as line feeds or U+2028 and
// U+2029.
type folder struct {
	whitespaces    []byte
	leadingBreak   []byte
	trailingBreaks []byte
	inBreaks       bool
}

func (f *folder) blank(c byte) {
	if !f.inBreaks {
		f.whitespaces = append(f.whitespaces, c)
	}
}

// lineBreak records the break at src[i] and returns the index after it.
func (f *folder) lineBreak(src string, i int) int {
	w := 1
	if src[i] >= 0x80 {
		_, w = utf8.DecodeRuneInString(src[i:])
	}
	brk := src[i : i+w]
	switch {
	case brk == "\r" && i+1 < len(src) && src[i+1] == '\n':
		w, brk = 2, "\n"
	case brk == "\r" || brk == "\u0085":
		brk = "\n"
	}
	if !f.inBreaks {
		f.whitespaces = f.whitespaces[:0]
		f.leadingBreak = append(f.leadingBreak, brk...)
		f.inBreaks = true
	} else {
		f.trailingBreaks = append(f.trailingBreaks, brk...)
	}
	return i + w
}

// join appends what the run folds to and resets f.
func (f *folder) join(out []byte) []byte {
	switch {
	case !f.inBreaks:
		out = append(out, f.whitespaces...)
	case f.leadingBreak[0] == '\n' && len(f.trailingBreaks) == 0:
		out = append(out, ' ')
	case f.leadingBreak[0] == '\n':
		out = append(out, f.trailingBreaks...)
	default:
		out = append(out, f.leadingBreak...)
		out = append(out, f.trailingBreaks...)
	}
	f.whitespaces = f.whitespaces[:0]
	f.leadingBreak = f.leadingBreak[:0]
	f.trailingBreaks = f.trailingBreaks[:0]
	f.inBreaks = false
	return out
}

// yamlAllowed reports whether YAML allows r raw in a stream:
// #x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] |
// [#x10000-#x10FFFF].
func yamlAllowed(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D:
		return true
	case 0x20 <= r && r <= 0x7E:
		return true
	case r == 0x85:
		return true
	case 0xA0 <= r && r <= 0xD7FF:
		return true
	case 0xE000 <= r && r <= 0xFFFD:
		return true
	case 0x10000 <= r && r <= 0x10FFFF:
		return true
	}
	return false
}

func hex4(s string) (rune, bool) {
	var v rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isBreak reports a YAML line break at s[i]: CR, LF, U+0085, U+2028, U+2029.
func isBreak(s string, i int) bool {
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return i+1 < len(s) && s[i+1] == 0x85
	case 0xE2:
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
	}
	return false
}

// isBlankz reports a blank, a break, or NUL (or the end) at s[i].
func isBlankz(s string, i int) bool {
	return i >= len(s) || s[i] == 0 || isBlank(s[i]) || isBreak(s, i)
}
