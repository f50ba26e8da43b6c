package diff

import (
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// samplePath returns a path m's path match takes: the path itself for
// Exact and PathPrefix, and a short string the expression matches for a
// RegularExpression.
func samplePath(m ir.Match) (string, bool) {
	if m.PathType != "RegularExpression" {
		return m.Path, true
	}
	return sampleRegex(m.Path)
}

// sampleValue returns a header or query value v matches.
func sampleValue(v ir.ValueMatch) (string, bool) {
	if v.Type != "RegularExpression" {
		return v.Value, true
	}
	return sampleRegex(v.Value)
}

// sampleRegex builds a short string that expr matches in full: the first
// alternative of each choice, the smallest number of repetitions, the
// first character of each class. The result is checked against the
// expression, and anything it does not match (look-around is not RE2, but
// \b and ^/$ inside the expression can defeat the construction) is
// reported as no sample.
func sampleRegex(expr string) (string, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	writeSample(&b, re.Simplify())
	full, err := regexp.Compile("^(?:" + expr + ")$")
	if err != nil || !full.MatchString(b.String()) {
		return "", false
	}
	return b.String(), true
}

func writeSample(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) > 0 {
			b.WriteRune(sampleRune(re.Rune))
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('x')
	case syntax.OpPlus:
		writeSample(b, re.Sub[0])
	case syntax.OpRepeat:
		for range re.Min {
			writeSample(b, re.Sub[0])
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			writeSample(b, s)
		}
	case syntax.OpAlternate, syntax.OpCapture:
		writeSample(b, re.Sub[0])
	}
	// Star, Quest, empty matches and assertions add nothing.
}

// sampleRune picks a readable rune from a class given as ranges: a letter
// or digit when the class has one, otherwise its first rune.
func sampleRune(ranges []rune) rune {
	for i := 0; i+1 < len(ranges); i += 2 {
		for _, r := range "x0a" {
			if ranges[i] <= r && r <= ranges[i+1] {
				return r
			}
		}
	}
	return ranges[0]
}
