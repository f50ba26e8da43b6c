package routetest

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/diag"
)

// The decoder's messages this file rewrites: an unknown field, and a value
// of the wrong type ("cannot unmarshal !!str `x` into int").
var (
	unknownField = regexp.MustCompile("^line (\\d+): field (\\S+) not found in type (\\S+)$")
	wrongType    = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+) (?:`(.*)` )?into (.+)$")
	anyLine      = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// docFields lists the fields of each YAML type by its Go name, so that an
// unknown field is answered with the ones there are.
var docFields = map[string]any{
	"routetest.fileDoc": fileDoc{}, "routetest.caseDoc": caseDoc{}, "routetest.requestDoc": requestDoc{},
	"routetest.expectDoc": expectDoc{}, "routetest.headersDoc": headersDoc{},
}

// typeError turns one of the decoder's messages into a problem.
func (p *parser) typeError(msg string) Problem {
	prob := Problem{Source: diag.Source{File: p.file}, Message: msg}
	if m := anyLine.FindStringSubmatch(msg); m != nil {
		prob.Source.Line, _ = strconv.Atoi(m[1])
		prob.Message = m[2]
	}
	if m := unknownField.FindStringSubmatch(msg); m != nil {
		prob.Field = p.fieldAt(prob.Source.Line, func(key, _ *yaml.Node) bool { return key != nil && key.Value == m[2] })
		prob.Message = "unknown field"
		if doc, ok := docFields[m[3]]; ok {
			prob.Message += " (valid: " + strings.Join(yamlFields(doc), ", ") + ")"
		}
		return prob
	}
	if m := wrongType.FindStringSubmatch(msg); m != nil {
		kind := nodeKind(m[2])
		prob.Field = p.fieldAt(prob.Source.Line, func(_, value *yaml.Node) bool { return value.Kind == kind })
		got := describeTag(m[2])
		if m[3] != "" {
			got = fmt.Sprintf("%q", m[3])
		}
		prob.Message = fmt.Sprintf("want %s, got %s", describeType(m[4]), got)
	}
	return prob
}

// fieldAt returns the path of the deepest value on line that ok accepts;
// key is nil for list items.
func (p *parser) fieldAt(line int, ok func(key, value *yaml.Node) bool) string {
	var found []any
	var walk func(n *yaml.Node, path []any)
	walk = func(n *yaml.Node, path []any) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				key, value := n.Content[i], n.Content[i+1]
				sub := append(slices.Clone(path), key.Value)
				if (key.Line == line || value.Line == line) && ok(key, value) {
					found = sub
				}
				walk(value, sub)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				sub := append(slices.Clone(path), i)
				if item.Line == line && ok(nil, item) {
					found = sub
				}
				walk(item, sub)
			}
		}
	}
	if doc := p.document(); doc != nil {
		walk(doc, nil)
	}
	return fieldPath(found)
}

// document is the file's top node, nil for an empty file.
func (p *parser) document() *yaml.Node {
	if p.root.Kind != yaml.DocumentNode || len(p.root.Content) == 0 {
		return nil
	}
	return p.root.Content[0]
}

// line is the line of the value at path (mapping keys as strings, list
// indices as ints); of the deepest node on the way when the path is not
// all there, as for a missing field.
func (p *parser) line(path []any) int {
	n := p.document()
	if n == nil {
		return 0
	}
	line := n.Line
	for _, step := range path {
		if n = child(n, step); n == nil {
			break
		}
		line = n.Line
	}
	return line
}

func child(n *yaml.Node, step any) *yaml.Node {
	switch s := step.(type) {
	case string:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == s {
				return n.Content[i+1]
			}
		}
	case int:
		if n.Kind == yaml.SequenceNode && s < len(n.Content) {
			return n.Content[s]
		}
	}
	return nil
}

// fieldPath renders a path as tests[2].expect.route.
func fieldPath(path []any) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// yamlFields lists the YAML names of a struct's fields.
func yamlFields(v any) []string {
	t := reflect.TypeOf(v)
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		out = append(out, name)
	}
	return out
}

func nodeKind(tag string) yaml.Kind {
	switch tag {
	case "map":
		return yaml.MappingNode
	case "seq":
		return yaml.SequenceNode
	}
	return yaml.ScalarNode
}

// describeTag names a YAML tag in words.
func describeTag(tag string) string {
	switch tag {
	case "map":
		return "a mapping"
	case "seq":
		return "a list"
	case "str":
		return "a string"
	case "int", "float":
		return "a number"
	case "bool":
		return "a boolean"
	case "null":
		return "nothing"
	}
	return "!!" + tag
}

// describeType names the Go type the decoder wanted in the file's terms.
func describeType(goType string) string {
	goType = strings.TrimPrefix(goType, "*")
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["), strings.HasPrefix(goType, "routetest."):
		return "a mapping"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case goType == "string":
		return "a string"
	}
	return goType
}
