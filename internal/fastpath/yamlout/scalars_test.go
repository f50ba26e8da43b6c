package yamlout

import (
	"strings"
	"testing"
)

// nastyScalars are strings that exercise yaml.v2's quoting, escaping,
// folding and block-style rules.
func nastyScalars() []string {
	words := []string{
		"y", "yes", "n", "no", "true", "false", "on", "off", "null", "~", "",
		".nan", ".inf", "+.inf", "-.inf", "<<", "=", "nan", "inf", "+inf", "-inf", "NaN", "Infinity", "-Infinity",
	}
	var out []string
	for _, w := range words {
		out = append(out, w, strings.ToUpper(w), strings.Title(w), mixedCase(w), " "+w, w+" ") //nolint:staticcheck
	}
	numbers := []string{
		"0", "-0", "+0", "1", "-1", "+1", "123", "0123", "0o17", "0O17", "0x1F", "0X1f", "0b101", "-0b101", "0b2",
		"1_000", "1__0", "_1", "1_", "0x_1F", "1.5", "-1.5", "+1.5", ".5", "-.5", "+.5", "1.", "1.e5", "1e5", "1E5",
		"1e+5", "1e-5", "1.5e10", ".5e1", "1e", "e1", "1e400", "-1e400", "9223372036854775807", "9223372036854775808",
		"18446744073709551615", "18446744073709551616", "-9223372036854775809", "0x8000000000000000",
		"0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "-0x1", "0b1111111111111111111111111111111111111111111111111111111111111111",
		"-0b1000000000000000000000000000000000000000000000000000000000000000", "1.2.3", "10.0.0.1", "1:20", "1:20:30",
		"190:20:30.15", "-1:30", "+1:30", "1:60", "1:5", "1:_5", "1_0:20", "1:20.", "1:20._5", "1::2", "12:30 pm",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43.10Z", "2001-12-14 21:59:43.10",
		"2001-12-14 21:59:43.10 -5", "2002-12-14", "2001-1-1", "20011-1-1", "2001-13-01", "1234-", "0x", "0b", "0o",
		"1e1_0", "0.1_1", "1_0.5", "._5", "0x1p-2", "1i", "٣", "1٣",
	}
	out = append(out, numbers...)
	special := []string{
		" ", "  ", " a", "a ", " a ", "\t", "a\tb", "\ta", "a\t", "a: b", "a:b", "a:", ":a", ": a", ":", "a #b", "a#b",
		"#a", "- a", "-a", "-", "--", "---", "--- a", "...", "....", "? a", "?a", "?", "a ? b", "a, b", "[a]", "{a}",
		"a]", "a}", "a[", "&a", "*a", "!a", "|a", ">a", "'a", "\"a", "%a", "@a", "`a", "a'b", "a\"b", "a\\b", "'",
		"\"", "\\", "''", "a''b", "a\\nb", "é", "日本語", "😀", "a😀b", "\u00a0", "a\u00a0b", "\u0085", "a\u0085b",
		"\u2028", "a\u2028b", "a\u2029b", "\ufeff", "\ufeffabc", "a\ufeff", "\ufffd", "\ue000", "\x00", "a\x00b",
		"\x01", "\x07\x08\x0b\x0c\x1b", "\r", "a\rb", "a\r\nb", "\x1f", "\u0080", "\u009f", "\u00ad", "\uD7FF",
		"a\nb", "a\n", "a\n\n", "\n", "\n\n", "\na", " \na", "a \nb", "a\n b", "a\n\tb", "  a\nb", "a\nb ", "a\nb\n ",
		"\ta\nb", "a\n\nb\n\n\n", "a\n\u2028b", "a\u2028\nb", "a\n\u0085", "- a\nb", "#\n", "a\n---\nb", "\"\n\"",
		"a\n\x00", "a\n😀", "\ufeffa\nb",
		"http://example.com/a?b=c#d", "example.com:8080", "/path/to:thing", "a: ", "a:\t", "{{ template }}",
		"${VAR}", "*", "&", "!", "@", "`", "%", "|", ">", "#", ",", "[", "]", "{", "}", "=", "<", ">", "<>", "&&",
		"a=b", "a>b", "a<b", "a&b",
	}
	out = append(out, special...)
	words80 := strings.Repeat("lorem ipsum ", 20)
	long := []string{
		strings.Repeat("x", 200),
		words80,
		strings.TrimSpace(words80),
		strings.Repeat("ab  ", 40),
		strings.Repeat("a ", 100) + "b",
		strings.Repeat("x", 78) + " y z",
		strings.Repeat("x", 79) + " y z",
		strings.Repeat("x", 80) + " y z",
		strings.Repeat("x", 81) + " y z",
		strings.Repeat("x", 90) + "  y",
		strings.Repeat("é ", 60),
		strings.Repeat("日本 ", 40),
		"true " + strings.Repeat("word ", 30) + "end",
		": " + strings.Repeat("word ", 30),
		" " + strings.Repeat("word ", 30) + "x",
		strings.Repeat("word ", 30) + "\t",
		"\"" + strings.Repeat("word ", 30) + "\"",
		strings.Repeat("w\u00a0", 50) + " x " + strings.Repeat("y ", 40),
		strings.Repeat("q\"", 30) + " " + strings.Repeat("z ", 40),
		strings.Repeat("line of text ", 10) + "\n" + strings.Repeat("more text ", 12) + "\n",
		"\x01" + strings.Repeat(" word", 30),
		"\x01" + strings.Repeat(" word ", 30) + "x",
		"\x01" + strings.Repeat("word  ", 30) + "x",
		"a'" + strings.Repeat(" word", 30) + " \u2028 " + strings.Repeat("w ", 30),
		"x\u2028" + strings.Repeat(" word", 30),
		strings.Repeat("word ", 30) + "\u2028" + strings.Repeat("word ", 30) + "x",
		strings.Repeat("a", 127),
		strings.Repeat("a", 128),
		strings.Repeat("a", 129),
		strings.Repeat("é", 64),
		strings.Repeat("é", 65),
	}
	return append(out, long...)
}

// mixedCase flips the case of every other letter: "tRuE".
func mixedCase(s string) string {
	b := []byte(s)
	for i := range b {
		if i%2 == 1 && 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// TestPlainWords checks the shortcut isPlainWord against the full style
// decision: a word it accepts is plain as a value and as a simple key,
// and needs no folding.
func TestPlainWords(t *testing.T) {
	words := append(nastyScalars(), "PathPrefix", "/search/v2", "team-000/rpc-008500:80", "a:", "a:b", "on", "On",
		"onion", "Yes", "yesterday", "null", "nullable", "/", "x_y.z", "Exact", "n", "no", "O", "~", "t-32", "a b")
	for _, s := range words {
		if !isPlainWord(s) {
			continue
		}
		a := analyze(s)
		if stringStyle(s, a, ctxMapping) != stylePlain || stringStyle(s, a, ctxSimpleKey) != stylePlain ||
			stringStyle(s, a, ctxSequence) != stylePlain || strings.IndexByte(s, ' ') >= 0 || !isPrintableASCII(s) {
			t.Errorf("isPlainWord(%q) = true, but yaml.v2 does not write it plain as it is", s)
		}
	}
	for _, s := range []string{"PathPrefix", "/search/v2", "team-000/rpc-008500:80", "onion"} {
		if !isPlainWord(s) {
			t.Errorf("isPlainWord(%q) = false, want true", s)
		}
	}
}
