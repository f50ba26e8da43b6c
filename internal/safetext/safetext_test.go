package safetext

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"", ""},
		{"api\n::stop-commands::x", `api\n::stop-commands::x`},
		{"a\rb\tc", `a\rb\tc`},
		{"a\x01b\x00", `a\u0001b\u0000`},
		{"del\x7f c1\u0085 \u009f", `del\u007f c1\u0085 \u009f`},
		{"sep\u2028\u2029", `sep\u2028\u2029`},
		{"bidi\u202eevil\u2066", `bidi\u202eevil\u2066`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"ünïcödé ✓ 名前", "ünïcödé ✓ 名前"},
		{`back\slash`, `back\slash`},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Visible(tt.in); strings.ContainsAny(got, "\n\r\x00\x01\u0085\u2028") {
			t.Errorf("Visible(%q) still holds a control character: %q", tt.in, got)
		}
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"shop/api", "shop/api"},
		{"x\r### Approved\r![img](https://e.invalid/a.png)", `x\\r### Approved\\r!\[img\](https://e.invalid/a.png)`},
		{"a|b", `a\|b`},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
		{"**bold** _em_ ~~s~~ `c`", "\\*\\*bold\\*\\* \\_em\\_ \\~\\~s\\~\\~ \\`c\\`"},
		{`\|`, `\\\|`},
	}
	for _, tt := range tests {
		if got := Markdown(tt.in); got != tt.want {
			t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"/path", "`/path`"},
		{"a`b", "``a`b``"},
		{"`x", "`` `x ``"},
		{"a|b\rc", "`a\\|b\\rc`"},
	}
	for _, tt := range tests {
		if got := MarkdownCode(tt.in); got != tt.want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestXML checks that every string becomes character data an XML parser
// accepts, inside CDATA as encoding/xml writes it, with line breaks kept.
func TestXML(t *testing.T) {
	for _, in := range []string{"plain", "a\x01b", "line\nbreak\ttab", "\x00\x1f\ufffe\uffff", "bad\xff", "]]>\x02"} {
		out := XML(in)
		var doc struct {
			Text string `xml:",cdata"`
		}
		b, err := xml.Marshal(struct {
			XMLName xml.Name `xml:"t"`
			Text    string   `xml:",cdata"`
		}{Text: out})
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(b, &doc); err != nil {
			t.Errorf("XML(%q) = %q is not XML: %v", in, out, err)
		}
		if strings.Contains(in, "\n") && !strings.Contains(out, "\n") {
			t.Errorf("XML(%q) lost its line break", in)
		}
	}
}

func BenchmarkVisiblePlain(b *testing.B) {
	s := strings.Repeat("HTTPRoute shop/recommendations: spec.rules[0].backendRefs[0] ", 4)
	for b.Loop() {
		_ = Visible(s)
	}
}
