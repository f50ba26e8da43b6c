package yamlout

import (
	"unicode"
	"unicode/utf8"
)

// keyLess is yaml.v2's order of string map keys, which is what
// sigs.k8s.io/yaml prints. It compares rune by rune; at the first rune that
// differs:
//   - two letters compare as runes, and a letter sorts after a non-letter;
//   - otherwise the runs of (Unicode) digits that start there compare by
//     value, then by length, then the runes themselves decide. A run that
//     starts with '0' and continues a number with a non-zero digit before it
//     counts from 1 instead of 0, a quirk kept as is.
//
// A key that is a prefix of the other sorts first. For distinct keys exactly
// one of keyLess(a, b) and keyLess(b, a) holds.
func keyLess(a, b string) bool {
	i, j := 0, 0 // byte offsets of the current rune in a and b
	for i < len(a) && j < len(b) {
		ra, sa := decodeRune(a, i)
		rb, sb := decodeRune(b, j)
		if ra == rb {
			i += sa
			j += sb
			continue
		}
		al, bl := isLetter(ra), isLetter(rb)
		if al && bl {
			return ra < rb
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if ra == '0' || rb == '0' {
			// Walk back over the common prefix (a[:i] equals b[:j]).
			for k := i; k > 0; {
				r, s := utf8.DecodeLastRuneInString(a[:k])
				if !isDigit(r) {
					break
				}
				if r != '0' {
					an, bn = 1, 1
					break
				}
				k -= s
			}
		}
		an, na := digitRun(a, i, an)
		bn, nb := digitRun(b, j, bn)
		if an != bn {
			return an < bn
		}
		if na != nb {
			return na < nb
		}
		return ra < rb
	}
	return i == len(a) && j < len(b)
}

// digitRun accumulates the run of digits that starts at byte i of s onto n
// (wrapping like int64 arithmetic does) and returns it with the run's length
// in runes.
func digitRun(s string, i int, n int64) (int64, int) {
	count := 0
	for i < len(s) {
		r, size := decodeRune(s, i)
		if !isDigit(r) {
			break
		}
		n = n*10 + int64(r-'0')
		i += size
		count++
	}
	return n, count
}

func decodeRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}
