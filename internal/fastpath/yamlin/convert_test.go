package yamlin

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// nasty are inputs at the edges of the subset Convert handles. Each is
// checked differentially; wantOK marks those the fast path must take, so
// that a regression to bailing out is seen too.
var nasty = []struct {
	name   string
	doc    string
	wantOK bool
}{
	{"empty", "", true},
	{"only comments", "# a\n  # b\n", true},
	{"blank lines", "\n\n   \n", true},
	{"simple mapping", "a: 1\nb: two\n", true},
	{"unsorted keys", "kind: x\napiVersion: v1\nmetadata:\n  namespace: n\n  name: a\n", true},
	{"nested", "a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
	{"sequence indented", "a:\n  - x\n  - y\nb: 1\n", true},
	{"sequence not indented", "a:\n- x\n- y\nb: 1\n", true},
	{"compact mapping items", "a:\n- name: x\n  port: 80\n- name: y\n  port: 81\n", true},
	{"nested sequences", "- - a\n  - b\n- - c\n", true},
	{"deeper compact", "- - - a\n    - b\n  - c: d\n    e: f\n", true},
	{"item on next line", "-\n  a: b\n-\n", true},
	{"top sequence", "- 1\n- two\n- \n", true},
	{"empty values", "a:\nb: \nc: # comment\nd:\n", true},
	{"comments everywhere", "# head\na: 1 # trailing\n# between\nb: # before value\n  # inside\n  c: 2\n   # odd indent\n", true},
	{"hash inside plain", "a: b#c\nd: 'e # f'\ng: \"h#i\"\n", true},
	{"key:value without space", "a:b\n", false},
	{"key:value in mapping", "x: 1\ny:z: 2\n", true},
	{"colon in value", "a: http://x.y/z\nb: c:d\n", true},
	{"mapping value in value", "a: b: c\n", false},
	{"keys with spaces", "a b: 1\n'c: d': 2\n\"e\\tf\": 3\n", true},
	{"key trailing spaces", "a   : 1\nb: 2   \n", true},
	{"indented top", "  a: 1\n  b: 2\n", true},
	{"bad indentation", "a:\n    b: 1\n  c: 2\n", false},
	{"over-indented key", "a: 1\n  b: 2\n", false},
	{"multi-line plain", "a: b\n  c\n", true},
	{"multi-line plain, blank lines", "a: b\n\n  c\n   \n\n     d  \ne: f\n", true},
	{"multi-line plain, trailing blank then sibling", "a: b\n  c\n\nd: e\n", true},
	{"multi-line plain, CRLF", "a: b\r\n  c\r\nd: e\r\n", true},
	{"multi-line plain in sequence", "- b\n  c\n- d\n", true},
	{"multi-line plain in compact mapping", "- a: b\n    c\n  d: e\n", true},
	{"multi-line plain too shallow in compact mapping", "- a: b\n  c\n", false},
	{"multi-line plain, wrapped words", "x:\n  description: this is a long sentence that an emitter\n    wrapped at eighty columns, with punctuation [a, b] {c} 'q' \"d\" a:b a#b\n    and more\n", true},
	{"multi-line plain, numbers fold to a string", "a: 1\n  2\nb: true\n  false\n", true},
	{"multi-line plain, comment after", "a: b\n  c\n  # x\nd: e\n", true},
	{"multi-line plain, comment between", "a: b\n  # x\n  c\n", false},
	{"multi-line plain, comment at end of a line", "a: b\n  c # x\n", false},
	{"multi-line plain, mapping on a line", "a: b\n  c: d\n", false},
	{"multi-line plain, colon at end", "a: b\n  c:\n", false},
	{"multi-line plain, dash", "a: b\n  - c\n", true},
	{"multi-line plain, indicators", "a: b\n  &c\n  |d\n  \"e\"\n  'f'\n  [g\n  {h\n  *i\n  !j\n  %k\n  @l\n  `m\n  ?n\n  >o\n  ,p\n", true},
	{"multi-line plain in sequence, dash", "- a\n  - b\n", true},
	{"multi-line plain after a comment", "a: b # x\n  c\n", false},
	{"multi-line quoted", "a: \"b\n  c\"\n", true},
	{"multi-line double-quoted with escapes", "a: \"b\\n\\t \\\" \n\n  c\\u00e9  \n  d \"  # x\ne: f\n", true},
	{"multi-line double-quoted, escaped break", "a: \"b\\\n  c\"\n", false},
	{"multi-line double-quoted, escaped space at end", "a: \"b\\ \n  c\"\n", false},
	{"multi-line double-quoted, bad escape", "a: \"b\\q\n  c\"\n", false},
	{"multi-line single-quoted", "a: 'b  \n   c '' d\n\n  \n  e  f '\ng: h\n", true},
	{"multi-line single-quoted in sequence", "- 'b\n  c' # x\n- d\n", true},
	{"multi-line single-quoted, too shallow", "a: 'b\nc'\n", false},
	{"multi-line single-quoted, unclosed", "a: 'b\n  c\n", false},
	{"multi-line single-quoted, then a colon", "- 'b\n  c': d\n", false},
	{"multi-line single-quoted, empty first line", "a: '\n  b'\n", true},
	{"duplicate key", "a: 1\na: 2\n", false},
	{"duplicate after conversion", "1: a\n\"1\": b\n", false},
	{"bool and int keys", "yes: 1\n2: b\n0x10: c\n", true},
	{"null key", "~: 1\n", false},
	{"float key", "1.5: a\n", false},
	{"merge key", "a: &x {b: 1}\nc:\n  <<: *x\n", false},
	{"anchor", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"complex key", "? a\n: b\n", false},
	{"tab indentation", "a:\n\tb: 1\n", false},
	{"directive", "%YAML 1.1\n---\na: 1\n", false},
	{"document start with content", "--- a: 1\n", false},
	{"CRLF", "a: 1\r\nb:\r\n  - x\r\n  - 'y'\r\nc: |\r\n  l1\r\n  l2\r\n", true},
	{"lone CR", "a: 1\rb: 2\n", false},
	{"BOM", "\ufeffa: 1\n", false},
	{"unicode", "ключ: значение\nemoji: \"\U0001F600\"\nnbsp: a\u00a0b\n", true},
	{"html and controls", "a: <b>&</b>\nb: \"\\x01\\0\\a\\b\\f\\v\\e\\r\\n\\t\"\n", true},
	{"line separators escaped", "a: \"\\L\\P\\N\\_\"\n", true},
	{"unicode escapes", "a: \"\\u00e9\\U0001F600\\x41\\u2028\"\n", true},
	{"surrogate escape", "a: \"\\ud800\"\n", false},
	{"unknown escape", "a: \"\\q\"\n", false},
	{"single quotes", "a: 'it''s'\nb: ''\nc: '\\n'\n", true},
	{"double quotes", "a: \"say \\\"hi\\\"\"\nb: \"\"\nc: \"\\\\\"\nd: \"\\ \\/\"\n", false},
	{"double quote escapes", "a: \"say \\\"hi\\\"\"\nb: \"\"\nc: \"\\\\\"\nd: \"\\ \\'\"\n", true},
	{"quoted then junk", "a: 'b' c\n", false},
	{"quoted then comment", "a: 'b' # c\n", true},
	{"flow empty", "a: []\nb: {}\nc: [ ]\nd: { }\n", true},
	{"flow sequence", "a: [x, \"y\", 'z', 1, true, null]\nb: [\"*\"]\n", true},
	{"flow mapping", "a: {b: c}\n", false},
	{"flow multi-line", "a: [b,\n  c]\n", false},
	{"flow trailing comma", "a: [b, ]\n", false},
	{"literal", "a: |\n  line 1\n  line 2\n\n  after blank\nb: 1\n", true},
	{"literal strip", "a: |-\n  x\n\n\nb: 1\n", true},
	{"literal keep", "a: |+\n  x\n\n\nb: 1\n", true},
	{"literal more indented", "a: |\n  x\n    y\n  z\n", true},
	{"literal with hash", "a: |\n  # not a comment\n  x\n# comment\nb: 1\n", true},
	{"literal at end", "a: |\n  x", true},
	{"literal in sequence", "- |\n  x\n- >-\n  y\n  z\n", true},
	{"literal leading blank", "a: |\n\n  x\n", true},
	{"literal leading over-indented blank", "a: |\n      \n  x\n", false},
	{"literal empty", "a: |\nb: 1\n", false},
	{"literal indicator", "a: |2\n   x\n", false},
	{"folded", "a: >\n  one\n  two\n\n  three\n    indented\n  four\n", true},
	{"folded keep", "a: >+\n  one\n  two\n\n", true},
	{"folded strip", "a: >-\n  one\n\n\n  two\n", true},
	{"booleans", "a: [y, Y, yes, Yes, YES, n, N, no, No, NO, true, True, TRUE, false, False, FALSE, on, On, ON, off, Off, OFF]\n", true},
	{"not booleans", "a: [yEs, tRUE, oN, Off1, nO, ye]\n", true},
	{"nulls", "a: ~\nb: null\nc: Null\nd: NULL\ne: nULL\n", true},
	{"ints", "a: 0\nb: -1\nc: +2\nd: 012\ne: 0x1F\nf: 0o17\ng: 1_000\nh: 0b101\ni: -0b11\nj: 9223372036854775807\nk: -9223372036854775808\nl: -0\n", true},
	{"leading zero decimal is a float", "a: 08\n", false},
	{"big int", "a: 9223372036854775808\n", false},
	{"huge int", "a: 99999999999999999999999\n", false},
	{"floats", "a: 1.5\n", false},
	{"float exp", "a: 1e5\n", false},
	{"dot float", "a: .5\n", false},
	{"inf", "a: .inf\n", false},
	{"nan", "a: .NaN\n", false},
	{"number-like strings", "a: 1.2.3\nb: 10m\nc: -foo\nd: 80%\ne: 1Gi\nf: 0x\nh: 1_\ni: ..\nj: .x\nk: +\n", true},
	{"base 60", "a: 1:20\n", true},
	{"timestamps", "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\n", true},
	{"indicator starts", "a: @x\n", false},
	{"dash value", "a: - b\n", false},
	{"keys of many kinds", "true: 1\nfalse: 2\nyes: 3\n", false},
	{"long line", "a: " + strings.Repeat("x", 100000) + "\n", true},
	{"long key", strings.Repeat("k", 1100) + ": v\n", false},
	{"deep nesting", deep(200), true},
	{"very deep nesting", deep(600), false},
	{"dashes in content", "a: |\n  ---\nb: ---x\n", true},
	{"question and colon plain", "a: ?x\nb: :x\n", false},
	{"quoted key colon", "\"a\":b\n", false},
	{"trailing spaces everywhere", "a:   \n  b: c   \n  d:    \n", true},
	{"sequence in mapping at wrong indent", "a:\n  - x\n  b: 1\n", false},
	{"top scalar", "hello\n", false},
	{"indentless in compact mapping", "- a:\n  - x\n  b: 1\n- c\n", true},
	{"null then sibling in compact mapping", "- a:\n  b: 1\n", true},
	{"nbsp at line start", "\u00a0a: b\n", true},
	{"flow in sequence item", "- [a, b]\n- {}\n- []\n", true},
	{"flow as key", "- [a]: b\n", false},
	{"literal in compact mapping too shallow", "- a: |\n  x\n", false},
	{"literal in compact mapping", "- a: |\n   x\n", true},
	{"literal with over-indented blank inside", "a: |\n  x\n     \n  y\n", true},
	{"block header comment", "a: |- # c\n  x\n", true},
	{"block header junk", "a: |x\n  x\n", false},
	{"int keys sort as strings", "10: a\n9: b\n-1: c\n", true},
}

// deep nests n mappings.
func deep(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("k:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "v: 1\n")
	return b.String()
}

func TestConvertNastyInputs(t *testing.T) {
	// One Converter for all, as a loader's worker has: what a document
	// (even a declined one) leaves in its scratch space must not matter.
	conv := &Converter{}
	for _, tt := range nasty {
		t.Run(tt.name, func(t *testing.T) {
			ok := checkDifferential(t, conv, []byte(tt.doc))
			if ok != tt.wantOK {
				want, err := yaml.YAMLToJSONStrict([]byte(tt.doc))
				t.Errorf("Convert ok = %v, want %v (YAMLToJSONStrict: %s, %v)", ok, tt.wantOK, want, err)
			}
		})
	}
}

func FuzzConvert(f *testing.F) {
	// Large seeds slow the fuzzer down (minimizing them takes long) and
	// their structure is covered by the small ones.
	for _, tt := range nasty {
		if len(tt.doc) <= 4096 {
			f.Add([]byte(tt.doc))
		}
	}
	for _, doc := range synthDocs(nil)[:50] {
		if len(doc) <= 4096 {
			f.Add(doc)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, ok := Convert(doc)
		if !ok {
			return
		}
		want, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			t.Fatalf("Convert accepted a document YAMLToJSONStrict rejects (%v):\n%q\nConvert: %s", err, doc, got)
		}
		if string(got) != string(want) {
			t.Fatalf("Convert differs on\n%q\n got: %s\nwant: %s", doc, got, want)
		}
	})
}
