package yamlout

import (
	"fmt"
	"unicode/utf8"
)

// escapeUnprintable rewrites, in JSON as encoding/json writes it, each raw
// character that a YAML parser refuses in a stream (DEL, the C1 controls,
// U+FFFE, U+FFFF) or reads as a line break (U+0085, U+2028, U+2029) as a
// \u escape. encoding/json leaves them raw, and sigs.k8s.io/yaml, which
// reads the JSON as YAML, then fails ("control characters are not
// allowed", a usage error of gwsim's on a manifest that the API server
// accepts) or folds the break into a space, which changes the string.
// Escaped, the string reads back as itself and is written double-quoted
// with YAML escapes ("a\x7Fb", "\N"). Marshal's output is therefore
// sigs.k8s.io/yaml.JSONToYAML of the escaped JSON.
//
// Escapes only occur inside strings, where these characters can be: JSON
// has no other place for non-ASCII text. j is returned as it is when it
// holds none, which a scan for their lead bytes tells.
func escapeUnprintable(j []byte) []byte {
	i := firstUnprintable(j, 0)
	if i < 0 {
		return j
	}
	out := make([]byte, 0, len(j)+16)
	for i >= 0 {
		r, size := utf8.DecodeRune(j[i:])
		out = append(out, j[:i]...)
		out = fmt.Appendf(out, `\u%04x`, r)
		j = j[i+size:]
		i = firstUnprintable(j, 0)
	}
	return append(out, j...)
}

// firstUnprintable returns the index of the first character
// escapeUnprintable rewrites, or -1.
func firstUnprintable(j []byte, from int) int {
	for i := from; i < len(j); i++ {
		c := j[i]
		if c < 0x7F {
			continue
		}
		if c == 0x7F {
			return i
		}
		r, size := utf8.DecodeRune(j[i:])
		if unprintable(r) {
			return i
		}
		i += size - 1
	}
	return -1
}

func unprintable(r rune) bool {
	switch {
	case r == 0x7F, 0x80 <= r && r <= 0x9F:
		return true
	case r == 0x2028, r == 0x2029, r == 0xFFFE, r == 0xFFFF:
		return true
	}
	return false
}
