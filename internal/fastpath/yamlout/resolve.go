package yamlout

import (
	"strconv"
	"strings"
	"time"
)

// plainIsString reports whether yaml.v2 would read s, written as a plain
// (unquoted) scalar, back as a string. yaml.v2 quotes every string for
// which this is false, and so must we. Like yaml.v2, only scalars whose
// first byte hints at a special value are looked at: '+', '-', digits,
// '.', "yYnNtTfFoO~", and the empty string (null).
func plainIsString(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || '0' <= c && c <= '9':
		if isSpecialWord(s) {
			return false
		}
		return !looksNumeric(s)
	case c == '.':
		if isSpecialWord(s) {
			return false
		}
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return !isSpecialWord(s)
	}
	return true
}

// isSpecialWord reports the words that yaml.v2 resolves to a bool, null,
// infinity or NaN.
func isSpecialWord(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES",
		"true", "True", "TRUE",
		"on", "On", "ON",
		"n", "N", "no", "No", "NO",
		"false", "False", "FALSE",
		"off", "Off", "OFF",
		"~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN",
		".inf", ".Inf", ".INF",
		"+.inf", "+.Inf", "+.INF",
		"-.inf", "-.Inf", "-.INF":
		return true
	}
	return false
}

// looksNumeric reports whether yaml.v2 resolves s, which starts with a sign
// or digit, to a timestamp, an integer (any Go base prefix, underscores
// ignored, also "-0b..." binary) or a float.
func looksNumeric(s string) bool {
	if isTimestamp(s) {
		return true
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if strings.Count(plain, ".") > 1 {
		// No integer or float below has two dots (an IP address), and
		// strconv's errors would cost an allocation each.
		return false
	}
	// Every syntax below uses only these bytes; checking first spares the
	// error values strconv allocates for ordinary strings.
	for i := 0; i < len(plain); i++ {
		if strings.IndexByte("+-.0123456789abcdefABCDEFxXoObB", plain[i]) < 0 {
			return false
		}
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if isYAMLFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return true
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return true
		}
	}
	return false
}

// isYAMLFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if n := digits(s, i); n == 0 {
			return false
		} else {
			i += n
		}
	} else {
		n := digits(s, i)
		if n == 0 {
			return false
		}
		i += n
		if i < len(s) && s[i] == '.' {
			i++
			i += digits(s, i)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digits(s, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

// digits counts the ASCII digits at s[i:].
func digits(s string, i int) int {
	n := 0
	for i+n < len(s) && '0' <= s[i+n] && s[i+n] <= '9' {
		n++
	}
	return n
}

// isBase60Float matches YAML 1.1 sexagesimal floats, which yaml.v2 does not
// read but still quotes: ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$.
func isBase60Float(s string) bool {
	if s == "" || strings.IndexByte(s, ':') < 0 {
		return false
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return false
	}
	i++
	i += digitsOrUnderscores(s, i)
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		switch {
		case i+1 < len(s) && '0' <= s[i] && s[i] <= '5' && '0' <= s[i+1] && s[i+1] <= '9':
			i += 2
		case i < len(s) && '0' <= s[i] && s[i] <= '9':
			i++
		default:
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		i += digitsOrUnderscores(s, i)
	}
	return i == len(s)
}

func digitsOrUnderscores(s string, i int) int {
	n := 0
	for i+n < len(s) && ('0' <= s[i+n] && s[i+n] <= '9' || s[i+n] == '_') {
		n++
	}
	return n
}

// timestampLayouts are the layouts yaml.v2 tries for a plain scalar that
// starts with four digits and a dash.
var timestampLayouts = [...]string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' || digits(s, 0) != 4 {
		return false
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
