package admission

// The patterns the Gateway API CRDs give most strings (names, groups,
// kinds, hostnames, header names) are matched by hand here: Go's regexp
// was a third of the fast walk's time. Each matcher answers exactly as
// regexp.MatchString of its pattern does (TestPatternMatchersMatchRegexp,
// FuzzPatternMatchers); a pattern not listed is matched by the regexp.

const (
	patternDNSSubdomain      = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	patternEmptyOrSubdomain  = `^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	patternWildcardSubdomain = `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	patternDNSLabel          = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	patternKind              = `^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`
	patternHeaderName        = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$"
)

// patternMatchers are the hand-written matchers, by pattern.
var patternMatchers = map[string]func(string) bool{
	patternDNSSubdomain:      dnsSubdomain,
	patternEmptyOrSubdomain:  func(s string) bool { return s == "" || dnsSubdomain(s) },
	patternWildcardSubdomain: wildcardSubdomain,
	patternDNSLabel:          func(s string) bool { return dnsLabel(s, lowerAlnum) },
	patternKind:              kindName,
	patternHeaderName:        headerName,
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func alnum(c byte) bool { return lowerAlnum(c) || c >= 'A' && c <= 'Z' }

// dnsLabel: one or more bytes that are end (first and last) or end or
// '-' (inside).
func dnsLabel(s string, end func(byte) bool) bool {
	if s == "" || !end(s[0]) || !end(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c != '-' && !end(c) {
			return false
		}
	}
	return true
}

// dnsSubdomain: lowercase DNS labels joined by dots.
func dnsSubdomain(s string) bool {
	for {
		i := 0
		for i < len(s) && s[i] != '.' {
			i++
		}
		if !dnsLabel(s[:i], lowerAlnum) {
			return false
		}
		if i == len(s) {
			return true
		}
		s = s[i+1:]
	}
}

func wildcardSubdomain(s string) bool {
	if len(s) >= 2 && s[0] == '*' && s[1] == '.' {
		s = s[2:]
	}
	return dnsSubdomain(s)
}

// kindName: a letter, then letters, digits and '-', not ending in '-'.
func kindName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') || s[len(s)-1] == '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; c != '-' && !alnum(c) {
			return false
		}
	}
	return true
}

// headerName: one or more RFC 7230 token characters.
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !alnum(c) && !isTokenSymbol(c) {
			return false
		}
	}
	return true
}

func isTokenSymbol(c byte) bool {
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
