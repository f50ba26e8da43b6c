package yamlin

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// allowedRunes is the set clean's doc comment allows, written as ranges
// from the YAML 1.2 printable set (c-printable) without tab, NEL, the line
// and paragraph separators and the byte order mark; line feeds are
// handled by lines.
var allowedRunes = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x20, Hi: 0x7e, Stride: 1},
		{Lo: 0xa0, Hi: 0x2027, Stride: 1},
		{Lo: 0x202a, Hi: 0xd7ff, Stride: 1},
		{Lo: 0xe000, Hi: 0xfefe, Stride: 1},
		{Lo: 0xff00, Hi: 0xfffd, Stride: 1},
	},
	R32: []unicode.Range32{{Lo: 0x10000, Hi: 0x10ffff, Stride: 1}},
}

// cleanBySpec is clean's contract written from its doc comment, a line at
// a time and a rune at a time, sharing no code with clean's scanner (so
// that a mistake in the scanner cannot also be in its reference): the
// oracle of TestCleanMatchesSpec and FuzzClean.
func cleanBySpec(doc []byte) bool {
	if !utf8.Valid(doc) {
		return false
	}
	lines := strings.Split(string(doc), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "%") || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...") {
			return false
		}
		if i < len(lines)-1 {
			line = strings.TrimSuffix(line, "\r") // a CR before a LF
		}
		for _, r := range line {
			if !unicode.Is(allowedRunes, r) {
				return false
			}
		}
	}
	return true
}

// TestCleanMatchesSpec puts every byte value, and each line start
// clean looks at, at every offset of a word and around it.
func TestCleanMatchesSpec(t *testing.T) {
	check := func(doc []byte) {
		t.Helper()
		if got, want := clean(doc), cleanBySpec(doc); got != want {
			t.Fatalf("clean(%q) = %v, want %v", doc, got, want)
		}
	}
	base := []byte("key: value-of some length ~ 0123456789")
	for b := range 256 {
		for at := range 20 {
			doc := append([]byte(nil), base...)
			doc[at] = byte(b)
			check(doc)
			check(doc[:at+1])
		}
	}
	for _, insert := range []string{"\n", "\r\n", "\r", "\n---", "\n...", "\n%", "\n--", "\u00e9", "\u2028", "\ufeff", "\xff", "\t", "\x7f"} {
		for at := range 20 {
			doc := append(append(append([]byte(nil), base[:at]...), insert...), base[at:]...)
			check(doc)
		}
	}
	for _, doc := range synthDocs(nil) {
		check(doc)
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"a: b\n", "a: b\r\n---\n", "k: \u00e9\u2028\n", "x\x7fy", "%YAML 1.2"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := clean(doc), cleanBySpec(doc); got != want {
			t.Fatalf("clean(%q) = %v, want %v", doc, got, want)
		}
	})
}

// TestConverterReuse converts documents of every size, and some it
// declines, with one Converter: each JSON is what a new Converter writes,
// though it is written over the one before.
func TestConverterReuse(t *testing.T) {
	docs := synthDocs(nil)
	docs = append(docs, []byte("a: [1, {b: c}]\n"), []byte("k: v\n"), bytes.Repeat([]byte("key: value\n"), 1), []byte(""))
	var conv Converter
	for i, doc := range docs {
		got, gotOK := conv.Convert(doc)
		want, wantOK := Convert(doc)
		if gotOK != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("document %d: reused Converter gave %s %v, want %s %v", i, got, gotOK, want, wantOK)
		}
	}
}
