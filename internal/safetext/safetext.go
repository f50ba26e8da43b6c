// Package safetext escapes text that comes from manifests for the outputs
// it reaches, so that it stays inside the field it was written in. A
// manifest is hostile input: a name may hold a newline followed by a
// GitHub workflow command (::stop-commands::), a carriage return that a
// Markdown renderer takes for a line ending, HTML, or characters XML 1.0
// forbids. Each function here owns one output's rules; the renderers call
// them at the point where manifest text meets the format.
package safetext

import (
	"strings"
	"unicode/utf8"
)

// Visible renders the characters a terminal, a log or a CI runner would
// act on as escapes, as kubectl does in its tables: \n, \r and \t, other
// control characters (C0, DEL, C1) as \u0001, invalid UTF-8 bytes as \xff,
// and the characters that break or reorder lines without being control
// characters (U+2028, U+2029, the bidirectional overrides and isolates of
// "Trojan Source") as \u202e. A line of output then never starts with
// manifest text, and a reader sees every character that is there.
// Backslashes are kept: a name with a literal "\n" in it reads the same as
// an escaped newline, which hides nothing.
func Visible(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i >= 0 {
		b.WriteString(s[:i])
		r, size := utf8.DecodeRuneInString(s[i:])
		writeEscape(&b, s[i], r, size)
		s = s[i+size:]
		i = firstUnsafe(s)
	}
	b.WriteString(s)
	return b.String()
}

// writeEscape writes the escape of the rune r (size bytes long, c its
// first byte) that Visible shows.
func writeEscape(b *strings.Builder, c byte, r rune, size int) {
	const hex = "0123456789abcdef"
	switch {
	case r == utf8.RuneError && size <= 1:
		b.WriteString(`\x`)
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xF])
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	default:
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xF])
		}
	}
}

// firstUnsafe returns the index of the first byte Visible escapes, or -1.
// Printable ASCII, the bulk of any output, is passed over a byte at a time.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			continue
		}
		if c < 0x80 {
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || Unsafe(r) {
			return i
		}
		i += size - 1
	}
	return -1
}

// Unsafe reports whether Visible escapes r: a control character (C0, DEL,
// C1), a line or paragraph separator, a bidirectional control, the byte
// order mark, or a noncharacter U+FFFE/U+FFFF.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7F && r <= 0x9F:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r == 0x200E, r == 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0xFEFF, r == 0xFFFE, r == 0xFFFF:
		return true
	}
	return false
}

// markdownEscaper escapes, after Visible, what CommonMark and GitHub's
// Markdown read as markup inside a table cell: the backslash first (so
// that an escape in the text cannot combine with the next character), the
// pipe that ends a cell, the punctuation that opens emphasis,
// strikethrough, code spans, links and images (an image needs "![", a
// link "[" ... "]("; the brackets escaped, neither forms), and HTML, as
// entities. Headings, lists and block quotes only start a line, which a
// cell's text no longer can once Visible has taken its line endings.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`, "[", `\[`, "]", `\]`,
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
)

// Markdown renders s as inline Markdown text that shows as written: no
// line ending (CommonMark ends a line at CR as well as LF), no cell
// boundary, no emphasis, link, image or HTML.
func Markdown(s string) string {
	return markdownEscaper.Replace(Visible(s))
}

// MarkdownCode renders s as a code span for a Markdown table cell: shown
// literally, so only line endings (Visible) and the pipe, which GitHub
// reads as a cell boundary even inside a code span, are escaped. The
// fence is longer than any run of backticks in s.
func MarkdownCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(Visible(s), "|", `\|`)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// XML makes s valid XML 1.0 character data, for CDATA sections and any
// text written without encoding/xml's escaping: the characters XML 1.0
// forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; invalid UTF-8)
// become Visible's escapes. Line breaks stay, since a report's text keeps
// its lines.
func XML(s string) string {
	var b strings.Builder
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := (r == utf8.RuneError && size <= 1) || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF
		if bad {
			b.WriteString(s[start:i])
			writeEscape(&b, s[i], r, size)
			start = i + size
		}
		i += size
	}
	if start == 0 {
		return s
	}
	b.WriteString(s[start:])
	return b.String()
}
