package textwrap

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHanging(t *testing.T) {
	head := "a.yaml:3: error[GWS3001]: HTTPRoute ns/r: "
	tests := []struct {
		name       string
		head, body string
		width      int
		want       []string
	}{
		{"fits", head, "short", 80, []string{head + "short"}},
		{"no wrap", head, strings.Repeat("word ", 40), 0, []string{head + strings.Repeat("word ", 40)}},
		{"breaks at spaces", "h: ", "aaa bbb ccc ddd", 12, []string{"h: aaa bbb", Gutter + "ccc ddd"}},
		// The head stays whole and takes the first word, however long.
		{"long head", head, "one two", 20, []string{head + "one", Gutter + "two"}},
		// A word longer than a line stays whole on a line of its own.
		{"long word", "h: ", "a " + strings.Repeat("x", 30) + " b", 12, []string{"h: a", Gutter + strings.Repeat("x", 30), Gutter + "b"}},
		// Runs of spaces are kept: one space per break.
		{"spaces", "h: ", "aaaa  bbbb", 8, []string{"h: aaaa ", Gutter + "bbbb"}},
		// Width counts runes, not bytes.
		{"runes", "h: ", "ééé ééé ééé", 10, []string{"h: ééé ééé", Gutter + "ééé"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Hanging(tt.head, tt.body, tt.width)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Hanging(%q, %q, %d) =\n%q\nwant\n%q", tt.head, tt.body, tt.width, got, tt.want)
			}
			if u := Unwrap(got); u != tt.head+tt.body {
				t.Errorf("Unwrap = %q, want %q", u, tt.head+tt.body)
			}
		})
	}
}

// FuzzHanging: any text comes back whole from Unwrap, no line is wider
// than the width unless it holds a single word (or the head), and every
// continuation line starts with the Gutter.
func FuzzHanging(f *testing.F) {
	f.Add("h: ", "a b  c ::error::x", 10)
	f.Add("", "", 1)
	f.Fuzz(func(t *testing.T, head, body string, width int) {
		width %= 200
		lines := Hanging(head, body, width)
		if u := Unwrap(lines); u != head+body {
			t.Fatalf("Unwrap = %q, want %q", u, head+body)
		}
		for i, l := range lines {
			if i > 0 && !strings.HasPrefix(l, Gutter) {
				t.Fatalf("line %d %q does not start with the gutter", i, l)
			}
			text := strings.TrimPrefix(l, Gutter)
			if i == 0 {
				text = strings.TrimPrefix(l, head)
			}
			if width > 0 && utf8.RuneCountInString(l) > width && strings.Contains(strings.TrimSpace(text), " ") {
				t.Fatalf("line %d %q is wider than %d and holds more than one word", i, l, width)
			}
		}
	})
}
