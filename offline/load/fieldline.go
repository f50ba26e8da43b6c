package load

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/offline/validate"
)

// fieldLine returns the line of the field at path (as Kubernetes prints
// field paths: `spec.rules[0].matches[1].path`, map keys in brackets) in a
// document, or of the deepest part of the path the document has (a
// required field that is missing points at its parent). ok is false when
// the document does not parse or path names nothing in it at all. It parses
// the document again, which only happens for a document with something to
// report, so that the common path keeps no positions.
func fieldLine(doc document, path string) (int, bool) {
	if doc.fields != nil {
		doc = *doc.fields
	} else if doc.noLines {
		return 0, false
	}
	root := parseDocument(doc)
	if root == nil {
		return 0, false
	}
	return nodeLine(root, doc.base, path)
}

// parseDocument parses a document into its root node, or nil when it does
// not parse.
func parseDocument(doc document) *yaml.Node {
	var root yaml.Node
	if err := yaml.Unmarshal(doc.data, &root); err != nil || len(root.Content) == 0 {
		return nil
	}
	return root.Content[0]
}

// nodeLine is fieldLine for a parsed document whose first line is base.
func nodeLine(node *yaml.Node, base int, path string) (int, bool) {
	line, _ := nodeDepth(node, base, validate.PathSegments(path))
	return line, line != 0
}

// nodeDepth returns the line of the deepest part of segs under node, and
// how many segments deep that is (0 when it has none of them).
func nodeDepth(node *yaml.Node, base int, segs []string) (line, depth int) {
	for _, seg := range segs {
		next, keyLine := child(node, seg)
		if next == nil {
			break
		}
		node, line = next, keyLine
		depth++
	}
	if line == 0 {
		return 0, 0
	}
	return base + line - 1, depth
}

// patchField finds the patch of a built document (see document.patches)
// that holds the whole field at path: kustomize applies patches after the
// resources, so the field's value is the patch's. ok is false when no
// patch holds it; when several do, the first in file order is named.
func patchField(doc document, path string) (file string, line int, ok bool) {
	if len(doc.patches) == 0 {
		return "", 0, false
	}
	segs := validate.PathSegments(path)
	for _, p := range doc.patches {
		root := parseDocument(p)
		if root == nil {
			continue
		}
		if l, depth := nodeDepth(root, p.base, segs); depth == len(segs) && depth > 0 {
			return p.file, l, true
		}
	}
	return "", 0, false
}

// child returns the node seg names under n and the line to point at: the
// key's line for a mapping entry, the item's for a sequence item.
func child(n *yaml.Node, seg string) (*yaml.Node, int) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				return n.Content[i+1], n.Content[i].Line
			}
		}
	case yaml.SequenceNode:
		i, err := strconv.Atoi(seg)
		if err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i], n.Content[i].Line
		}
		if err != nil {
			return namedItem(n, seg)
		}
	}
	return nil, 0
}

// namedItem is the item of a list keyed by name (a Gateway's listeners,
// which findings name as `spec.listeners[https]`) whose name is name.
func namedItem(list *yaml.Node, name string) (*yaml.Node, int) {
	for _, item := range list.Content {
		if v, _ := child(item, "name"); v != nil && v.Kind == yaml.ScalarNode && v.Value == name {
			return item, item.Line
		}
	}
	return nil, 0
}
