// Package textwrap breaks a finding's line of text output so that it fits
// a width, for a reader at a terminal or in a CI log.
package textwrap

import (
	"strings"
	"unicode/utf8"
)

// Gutter starts every continuation line. It is not blank: GitHub's runner
// trims leading blanks before it looks for a workflow command (`::error`),
// so a continuation line that started with a word of manifest text could
// issue one; no line of output starts with manifest text.
const Gutter = "  | "

// Hanging wraps head followed by body at width columns (runes; a wide
// character counts as one). head is never broken: it stays whole on the
// first line (the `file:line: severity[CODE]: Kind ns/name: field: ` that
// grep, editors and people look for), followed by as much of body as
// fits, and at least its first word. The rest of body goes on lines that
// start with Gutter. body is broken only at spaces, one space per break,
// and a word longer than a line stays whole. width <= 0, or a line that
// fits, gives one line.
//
// The lines joined with single spaces, the Gutter taken off, give head
// and body back (Unwrap).
func Hanging(head, body string, width int) []string {
	col := utf8.RuneCountInString(head)
	if width <= 0 || col+utf8.RuneCountInString(body) <= width {
		return []string{head + body}
	}
	gutter := utf8.RuneCountInString(Gutter)
	var lines []string
	var line strings.Builder
	line.WriteString(head)
	empty := true // no word of body on the line yet
	for w := range strings.SplitSeq(body, " ") {
		n := utf8.RuneCountInString(w)
		if !empty && col+1+n > width {
			lines = append(lines, line.String())
			line.Reset()
			line.WriteString(Gutter)
			col, empty = gutter, true
		}
		if !empty {
			line.WriteByte(' ')
			col++
		}
		line.WriteString(w)
		col += n
		empty = false
	}
	return append(lines, line.String())
}

// Unwrap is the text Hanging wrapped: its lines joined with single spaces,
// the Gutter taken off each continuation line.
func Unwrap(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(' ')
			l = strings.TrimPrefix(l, Gutter)
		}
		b.WriteString(l)
	}
	return b.String()
}
