package yamlin

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// cleanByteByByte is clean as it was before it read eight bytes at a time:
// the reference of TestCleanMatchesByteByByte and FuzzClean.
func cleanByteByByte(doc []byte) bool {
	lineStart := true
	for i := 0; i < len(doc); {
		b := doc[i]
		if lineStart {
			if b == '%' || bytes.HasPrefix(doc[i:], []byte("---")) || bytes.HasPrefix(doc[i:], []byte("...")) {
				return false
			}
			lineStart = false
		}
		switch {
		case b >= 0x20 && b < 0x7f:
			i++
			continue
		case b == '\n':
			lineStart = true
			i++
			continue
		case b == '\r':
			if i+1 >= len(doc) || doc[i+1] != '\n' {
				return false
			}
			i++
			continue
		case b < utf8.RuneSelf:
			return false
		}
		r, n := utf8.DecodeRune(doc[i:])
		if !printable(r) || (r == utf8.RuneError && n == 1) {
			return false
		}
		i += n
	}
	return true
}

// TestCleanMatchesByteByByte puts every byte value, and each line start
// clean looks at, at every offset of a word and around it.
func TestCleanMatchesByteByByte(t *testing.T) {
	check := func(doc []byte) {
		t.Helper()
		if got, want := clean(doc), cleanByteByByte(doc); got != want {
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
		if got, want := clean(doc), cleanByteByByte(doc); got != want {
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
