package yamlout

import (
	"regexp"
	"testing"
)

// The hand-written matchers must agree with the regular expressions that
// yaml.v2 uses.
func TestMatchersAgreeWithRegexps(t *testing.T) {
	base60 := regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
	float := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	inputs := nastyScalars()
	// Every string of up to four characters from a small alphabet.
	alphabet := []byte("0159_:.+-eE")
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		inputs = append(inputs, string(prefix))
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c), n-1)
		}
	}
	gen(nil, 4)
	for _, s := range inputs {
		if got, want := isBase60Float(s), base60.MatchString(s); got != want {
			t.Errorf("isBase60Float(%q) = %v, want %v", s, got, want)
		}
		if got, want := isYAMLFloat(s), float.MatchString(s); got != want {
			t.Errorf("isYAMLFloat(%q) = %v, want %v", s, got, want)
		}
	}
}
