package flux

import (
	"hash/fnv"
	"regexp"
	"strings"
)

// varName is what Flux accepts as a variable's name.
var varName = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

// Substitute replaces ${NAME} references in text as Flux's post-build
// substitution does: from vars; with the default of ${NAME:=default} or
// ${NAME:-default} when NAME is unset or empty, of ${NAME=default} or
// ${NAME-default} when it is unset; `$${` is an escaped, literal `${`. A
// reference that stays unresolved becomes the placeholder of its name
// (Placeholder) and is listed in unresolved. Text that is not a valid
// reference is left as it is. A value may be long and referenced many
// times, so the output is bounded: once it would pass maxBytes, ok is
// false and out is empty.
func Substitute(text string, vars map[string]string, maxBytes int) (out string, unresolved []string, ok bool) {
	if !strings.Contains(text, "${") {
		return text, nil, len(text) <= maxBytes
	}
	var b strings.Builder
	for {
		if b.Len() > maxBytes {
			return "", nil, false
		}
		i := strings.Index(text, "${")
		if i < 0 {
			b.WriteString(text)
			return b.String(), unresolved, b.Len() <= maxBytes
		}
		if i > 0 && text[i-1] == '$' {
			b.WriteString(text[:i-1])
			b.WriteString("${")
			text = text[i+2:]
			continue
		}
		end := strings.IndexByte(text[i:], '}')
		if end < 0 {
			b.WriteString(text)
			return b.String(), unresolved, b.Len() <= maxBytes
		}
		b.WriteString(text[:i])
		ref := text[i+2 : i+end]
		text = text[i+end+1:]
		val, ok, name := resolve(ref, vars)
		switch {
		case name == "":
			b.WriteString("${" + ref + "}")
		case ok:
			b.WriteString(val)
		default:
			b.WriteString(Placeholder(name))
			unresolved = append(unresolved, name)
		}
	}
}

// resolve evaluates one reference (the text between ${ and }). name is
// empty when ref is not a reference Flux substitutes.
func resolve(ref string, vars map[string]string) (val string, ok bool, name string) {
	name, op, def := ref, "", ""
	for _, o := range []string{":=", ":-", "=", "-"} {
		if k := strings.Index(ref, o); k > 0 {
			name, op, def = ref[:k], o, ref[k+len(o):]
			break
		}
	}
	if !varName.MatchString(name) {
		return "", false, ""
	}
	v, set := vars[name]
	switch {
	case set && (v != "" || op == "" || op == "=" || op == "-"):
		return v, true, name
	case op != "":
		return def, true, name
	}
	return "", false, name
}

// Placeholder is the DNS label an unresolved ${NAME} stands for: the same
// label wherever NAME appears, so that app.${DOMAIN} is covered by a
// listener for *.${DOMAIN}, and a valid label, so that hostname patterns
// accept it. It is as long as `${NAME}` itself (for names up to 60
// characters), so that the CLI can write the reference back in its place
// without moving a table's columns: a letter chosen by a hash of the name
// (names that differ only in case or in `_` and `-` get different
// letters, most of the time), the name in lower case with `_` as `-`,
// then "zz".
func Placeholder(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	first := byte('a' + h.Sum32()%26)
	enc := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	if len(enc) > 60 {
		enc = enc[:60]
	}
	return string(first) + enc + "zz"
}

// Reference is how a placeholder is written back for the user.
func Reference(name string) string { return "${" + name + "}" }
