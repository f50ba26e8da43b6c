package shadow

import (
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/gwsim/gwsim/translate/ir"
)

// regexCoversPath reports whether the RegularExpression path expr (matched
// against the whole path, as Envoy's safe_regex does) matches every path of
// m. For an Exact path that is one match. For a PathPrefix it is decided
// only for expressions of the form literal followed by ".*": those match
// exactly the paths that start with the literal, and a prefix's paths all
// start with the prefix itself. Other expressions are assumed not to cover.
func regexCoversPath(expr string, m ir.Match) bool {
	if m.PathType == pathExact {
		re, err := regexp.Compile("^(?:" + expr + ")$")
		return err == nil && re.MatchString(m.Path)
	}
	lit, ok := literalThenAnything(expr)
	if !ok {
		return false
	}
	p := trimPrefix(m.Path)
	if p == "" { // the prefix "/": every path, and every path starts with "/"
		return lit == "" || lit == "/"
	}
	return strings.HasPrefix(p, lit)
}

// literalThenAnything returns L when expr matches exactly the strings that
// start with the literal L (L may be empty: ".*").
func literalThenAnything(expr string) (string, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	if len(subs) == 0 || !isAnything(subs[len(subs)-1]) {
		return "", false
	}
	var lit strings.Builder
	for _, s := range subs[:len(subs)-1] {
		if s.Op != syntax.OpLiteral || s.Flags&syntax.FoldCase != 0 {
			return "", false
		}
		lit.WriteString(string(s.Rune))
	}
	return lit.String(), true
}

// isAnything reports whether re is ".*": any run of characters. "." does
// not match a newline by default, and a request path holds none.
func isAnything(re *syntax.Regexp) bool {
	if re.Op != syntax.OpStar || len(re.Sub) != 1 {
		return false
	}
	op := re.Sub[0].Op
	return op == syntax.OpAnyChar || op == syntax.OpAnyCharNotNL
}
