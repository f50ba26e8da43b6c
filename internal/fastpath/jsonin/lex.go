package jsonin

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Lexer reads JSON from Data at Pos, one token at a time: the JSON reader
// that gwsim's fast readers share (the typed decoder here, the loader's
// header scan). Each method reports false, leaving Pos where the token
// began, or past it when the token is malformed, when the input is not
// what it reads; its caller then declines and the library reads the
// document instead.
type Lexer struct {
	Data []byte
	Pos  int
}

// Space passes over JSON white space.
func (l *Lexer) Space() {
	for l.Pos < len(l.Data) {
		switch l.Data[l.Pos] {
		case ' ', '\t', '\n', '\r':
			l.Pos++
		default:
			return
		}
	}
}

// Peek skips white space and returns the next byte, 0 at the end.
func (l *Lexer) Peek() byte {
	l.Space()
	if l.Pos >= len(l.Data) {
		return 0
	}
	return l.Data[l.Pos]
}

// AtEnd reports whether nothing but white space is left.
func (l *Lexer) AtEnd() bool {
	l.Space()
	return l.Pos == len(l.Data)
}

// Literal consumes word (true, false, null) if it comes next.
func (l *Lexer) Literal(word string) bool {
	if !bytes.HasPrefix(l.Data[l.Pos:], []byte(word)) {
		return false
	}
	l.Pos += len(word)
	return true
}

// PlainString reads a string at Pos that has no escapes, and reports
// whether its bytes are valid UTF-8: its text is then exactly the string
// encoding/json decodes.
func (l *Lexer) PlainString() ([]byte, bool) {
	start := l.Pos + 1
	for i := start; i < len(l.Data); i++ {
		switch c := l.Data[i]; {
		case c == '"':
			b := l.Data[start:i]
			l.Pos = i + 1
			return b, utf8.Valid(b)
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// RawString reads a string at Pos and returns its contents between the
// quotes, escapes intact, after checking that they are well-formed.
func (l *Lexer) RawString() ([]byte, bool) {
	start := l.Pos + 1
	for i := start; i < len(l.Data); i++ {
		switch c := l.Data[i]; {
		case c == '"':
			l.Pos = i + 1
			return l.Data[start:i], true
		case c < 0x20:
			return nil, false
		case c == '\\':
			i++
			if i >= len(l.Data) {
				return nil, false
			}
			switch l.Data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(l.Data) || !isHex(l.Data[i+1]) || !isHex(l.Data[i+2]) || !isHex(l.Data[i+3]) || !isHex(l.Data[i+4]) {
					return nil, false
				}
				i += 4
			default:
				return nil, false
			}
		}
	}
	return nil, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Integer reads a JSON number without fraction or exponent that fits an
// int64: -?(0|[1-9][0-9]*).
func (l *Lexer) Integer() (int64, bool) {
	start := l.Pos
	i := start
	if i < len(l.Data) && l.Data[i] == '-' {
		i++
	}
	digits := i
	for i < len(l.Data) && l.Data[i] >= '0' && l.Data[i] <= '9' {
		i++
	}
	if i == digits || l.Data[digits] == '0' && i > digits+1 {
		return 0, false
	}
	if i < len(l.Data) {
		switch l.Data[i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(l.Data[start:i]), 10, 64)
	if err != nil {
		return 0, false
	}
	l.Pos = i
	return n, true
}

// Number passes over any JSON number:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (l *Lexer) Number() bool {
	if l.Pos < len(l.Data) && l.Data[l.Pos] == '-' {
		l.Pos++
	}
	switch {
	case l.Pos < len(l.Data) && l.Data[l.Pos] == '0':
		l.Pos++
	case !l.digits():
		return false
	}
	if l.Pos < len(l.Data) && l.Data[l.Pos] == '.' {
		l.Pos++
		if !l.digits() {
			return false
		}
	}
	if l.Pos < len(l.Data) && (l.Data[l.Pos] == 'e' || l.Data[l.Pos] == 'E') {
		l.Pos++
		if l.Pos < len(l.Data) && (l.Data[l.Pos] == '+' || l.Data[l.Pos] == '-') {
			l.Pos++
		}
		if !l.digits() {
			return false
		}
	}
	return true
}

// digits passes over one or more digits.
func (l *Lexer) digits() bool {
	start := l.Pos
	for l.Pos < len(l.Data) && '0' <= l.Data[l.Pos] && l.Data[l.Pos] <= '9' {
		l.Pos++
	}
	return l.Pos > start
}
