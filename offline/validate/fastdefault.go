package validate

import (
	"maps"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// defaultNode is a structural schema node reduced to what defaulting
// alone (Validator.Default, for --validate=false) reads: the defaults, and
// the way to the nodes below that have some. A subtree without any
// default is nil: defaulting leaves such values as they are.
type defaultNode struct {
	dflt     any
	nullable bool
	// props holds every property name, with nil for those whose subtree
	// has no default: a property is never defaulted as an additional one.
	props      map[string]*defaultNode
	defaulted  []namedDefault
	additional *defaultNode
	items      *defaultNode
}

type namedDefault struct {
	name string
	node *defaultNode
}

// compileDefaults reduces s for applyDefaults; nil when nothing under s
// has a default.
func compileDefaults(s *structuralschema.Structural) *defaultNode {
	if s == nil {
		return nil
	}
	n := &defaultNode{dflt: s.Default.Object, nullable: s.Nullable}
	some := n.dflt != nil
	if len(s.Properties) > 0 {
		n.props = make(map[string]*defaultNode, len(s.Properties))
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[name]
			child := compileDefaults(&p)
			n.props[name] = child
			if child != nil {
				some = true
				if child.dflt != nil {
					n.defaulted = append(n.defaulted, namedDefault{name: name, node: child})
				}
			}
		}
	}
	if s.AdditionalProperties != nil {
		n.additional = compileDefaults(s.AdditionalProperties.Structural)
		some = some || n.additional != nil
	}
	n.items = compileDefaults(s.Items)
	some = some || n.items != nil
	if !some {
		return nil
	}
	return n
}

// applyDefaults does what the library's structural defaulting does to x,
// visiting only the parts of the schema that hold defaults: a missing
// property, or a null where the schema does not allow null, takes a copy
// of its default, and so does a null additional property or list item;
// then the values below are defaulted in turn (defaults included).
// TestFastDefaultMatchesLibrary checks it against the library.
func applyDefaults(x any, n *defaultNode) {
	if n == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, d := range n.defaulted {
			if v, found := x[d.name]; !found || (v == nil && !d.node.nullable) {
				x[d.name] = copyJSONValue(d.node.dflt)
			}
		}
		for k, v := range x {
			if child, isProp := n.props[k]; isProp {
				applyDefaults(v, child)
				continue
			}
			if a := n.additional; a != nil {
				if v == nil && !a.nullable && a.dflt != nil {
					v = copyJSONValue(a.dflt)
					x[k] = v
				}
				applyDefaults(v, a)
			}
		}
	case []any:
		it := n.items
		if it == nil {
			return
		}
		for i, v := range x {
			if v == nil && !it.nullable && it.dflt != nil {
				v = copyJSONValue(it.dflt)
				x[i] = v
			}
			applyDefaults(v, it)
		}
	}
}
