package admission

import (
	"maps"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// Defaults is a structural schema node reduced to what defaulting
// alone (Validator.Default, for --validate=false) reads: the defaults, and
// the way to the nodes below that have some. A subtree without any
// default is nil: defaulting leaves such values as they are.
type Defaults struct {
	dflt     any
	nullable bool
	// props holds every property name, with nil for those whose subtree
	// has no default: a property is never defaulted as an additional one.
	props      map[string]*Defaults
	defaulted  []namedDefault
	additional *Defaults
	items      *Defaults
}

type namedDefault struct {
	name string
	node *Defaults
}

// CompileDefaults reduces s for ApplyDefaults; nil when nothing under s
// has a default.
func CompileDefaults(s *structuralschema.Structural) *Defaults {
	if s == nil {
		return nil
	}
	n := &Defaults{dflt: s.Default.Object, nullable: s.Nullable}
	some := n.dflt != nil
	if len(s.Properties) > 0 {
		n.props = make(map[string]*Defaults, len(s.Properties))
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[name]
			child := CompileDefaults(&p)
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
		n.additional = CompileDefaults(s.AdditionalProperties.Structural)
		some = some || n.additional != nil
	}
	n.items = CompileDefaults(s.Items)
	some = some || n.items != nil
	if !some {
		return nil
	}
	return n
}

// ApplyDefaults does what the library's structural defaulting does to x,
// visiting only the parts of the schema that hold defaults: a missing
// property, or a null where the schema does not allow null, takes a copy
// of its default, and so does a null additional property or list item;
// then the values below are defaulted in turn (defaults included).
// TestFastDefaultMatchesLibrary checks it against the library.
func ApplyDefaults(x any, n *Defaults) {
	if n == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, d := range n.defaulted {
			if v, found := x[d.name]; !found || (v == nil && !d.node.nullable) {
				x[d.name] = CopyJSONValue(d.node.dflt)
			}
		}
		for k, v := range x {
			if child, isProp := n.props[k]; isProp {
				ApplyDefaults(v, child)
				continue
			}
			if a := n.additional; a != nil {
				if v == nil && !a.nullable && a.dflt != nil {
					v = CopyJSONValue(a.dflt)
					x[k] = v
				}
				ApplyDefaults(v, a)
			}
		}
	case []any:
		it := n.items
		if it == nil {
			return
		}
		for i, v := range x {
			if v == nil && !it.nullable && it.dflt != nil {
				v = CopyJSONValue(it.dflt)
				x[i] = v
			}
			ApplyDefaults(v, it)
		}
	}
}
