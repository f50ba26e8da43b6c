package admission

import (
	"maps"
	"math"
	"regexp"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

// WalkNode is one node of a CRD version's schema, compiled for the fast
// admission walk (fastwalk.go): what pruning, null pruning and defaulting
// do at the node (from the structural schema, as the library's pruning
// and defaulting read it) and what the OpenAPI validator checks there
// (from the very spec.Schema that the library's validator is built from).
//
// A node that uses a construct the walk does not reproduce exactly is
// marked unsupported: an object with a value there is admitted by the
// library instead. The walk never approximates.
type WalkNode struct {
	// unsupported: any value at this node sends the object to the library.
	unsupported bool
	kind        fastKind
	nullable    bool
	// dflt is the structural default (after PruneDefaults), nil for none.
	dflt any

	// Objects.
	props map[string]*WalkNode
	// defaulted are the properties with a default, in a fixed order.
	defaulted []namedNode
	// additional is additionalProperties' schema, nil when absent.
	additional *WalkNode
	required   []string
	minProps   int64 // -1: no bound
	maxProps   int64 // -1: no bound

	// Arrays.
	items              *WalkNode
	minItems, maxItems int64 // -1: no bound
	listType           listType
	mapKeys            []string

	// Strings.
	minLen, maxLen int64 // -1: no bound
	pattern        *regexp.Regexp
	// match is pattern's hand-written matcher (fastpattern.go), nil
	// for a pattern without one.
	match func(string) bool
	enum  []string // nil: no enum
	// format is checked with the validator's registry, strfmt.Default
	// (the one apiservervalidation gives it); "" for none.
	format string

	// Integers: bounds already made inclusive; int32 for format int32.
	min, max int64
	hasMin   bool
	hasMax   bool
	int32    bool
	intEnum  []int64 // nil: no enum
}

type namedNode struct {
	name string
	node *WalkNode
}

type fastKind uint8

const (
	kindObject fastKind = iota + 1
	kindArray
	kindString
	kindInteger
	kindBoolean
)

type listType uint8

const (
	listAtomic listType = iota
	listSet
	listMap
)

// CompileWalk builds the fast walk's schema from the structural schema s
// (defaults pruned, as the server keeps it) and the OpenAPI schema o that
// the library's validator was built from.
func CompileWalk(s *structuralschema.Structural, o *spec.Schema) *WalkNode {
	return compileFastNode(s, o)
}

func compileFastNode(s *structuralschema.Structural, o *spec.Schema) *WalkNode {
	n := &WalkNode{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	if s == nil || o == nil {
		n.unsupported = true
		return n
	}
	// The default is kept even on an unsupported node: an object that
	// lacks the field gets it, and so reaches the node.
	n.dflt = s.Default.Object
	n.nullable = s.Nullable
	if !supportedShape(s, o) || o.Nullable != s.Nullable || (n.dflt != nil && !plainJSON(n.dflt)) {
		n.unsupported = true
		return n
	}
	switch o.Type[0] {
	case "object":
		n.kind = kindObject
		compileObject(n, s, o)
	case "array":
		n.kind = kindArray
		compileArray(n, s, o)
	case "string":
		n.kind = kindString
		compileString(n, o)
	case "integer":
		n.kind = kindInteger
		compileInteger(n, o)
	case "boolean":
		n.kind = kindBoolean
	default:
		n.unsupported = true
	}
	return n
}

// supportedShape reports whether the node uses only what the walk
// reproduces: one type, no combinators, no unknown-field preservation,
// embedded resources, int-or-string, pattern properties, uniqueItems,
// multipleOf, tuple items, and the same type in both schemas.
func supportedShape(s *structuralschema.Structural, o *spec.Schema) bool {
	if len(o.Type) != 1 || o.Type[0] != s.Type || o.Ref.String() != "" {
		return false
	}
	if s.XPreserveUnknownFields || s.XEmbeddedResource || s.XIntOrString {
		return false
	}
	if v := s.ValueValidation; v != nil && (len(v.AllOf) > 0 || len(v.AnyOf) > 0 || len(v.OneOf) > 0 || v.Not != nil) {
		return false
	}
	if len(o.AllOf) > 0 || len(o.AnyOf) > 0 || len(o.OneOf) > 0 || o.Not != nil || len(o.Dependencies) > 0 ||
		len(o.PatternProperties) > 0 || o.UniqueItems || o.MultipleOf != nil || o.AdditionalItems != nil {
		return false
	}
	if o.Items != nil && len(o.Items.Schemas) > 0 {
		return false
	}
	// Formats: on strings the walk asks the validator's own format
	// registry; on integers it checks int32's range (int64 is any int64).
	switch {
	case o.Format == "", o.Type[0] == "string":
	case o.Type[0] == "integer" && (o.Format == "int32" || o.Format == "int64"):
	default:
		return false
	}
	// Bounds the node's type does not use would still be read by the
	// validator on a value of another type, which fails the type check
	// first anyway; enums only on strings.
	if len(o.Enum) > 0 && o.Type[0] != "string" && o.Type[0] != "integer" {
		return false
	}
	return true
}

func compileObject(n *WalkNode, s *structuralschema.Structural, o *spec.Schema) {
	n.props = make(map[string]*WalkNode, len(s.Properties))
	if len(s.Properties) != len(o.Properties) {
		n.unsupported = true
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		sp := s.Properties[name]
		op, ok := o.Properties[name]
		if !ok {
			n.unsupported = true
			continue
		}
		child := compileFastNode(&sp, &op)
		n.props[name] = child
		if child.dflt != nil {
			n.defaulted = append(n.defaulted, namedNode{name: name, node: child})
		}
	}
	switch {
	case s.AdditionalProperties == nil && o.AdditionalProperties == nil:
	case s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil &&
		o.AdditionalProperties != nil && o.AdditionalProperties.Allows && o.AdditionalProperties.Schema != nil:
		n.additional = compileFastNode(s.AdditionalProperties.Structural, o.AdditionalProperties.Schema)
	default:
		n.unsupported = true
	}
	n.required = o.Required
	n.minProps = bound(o.MinProperties)
	n.maxProps = bound(o.MaxProperties)
}

func compileArray(n *WalkNode, s *structuralschema.Structural, o *spec.Schema) {
	if s.Items == nil || o.Items == nil || o.Items.Schema == nil {
		n.unsupported = true
		return
	}
	n.items = compileFastNode(s.Items, o.Items.Schema)
	n.minItems = bound(o.MinItems)
	n.maxItems = bound(o.MaxItems)
	if s.XListType != nil {
		switch *s.XListType {
		case "atomic":
		case "set":
			n.listType = listSet
		case "map":
			n.listType = listMap
			n.mapKeys = s.XListMapKeys
			if len(n.mapKeys) == 0 {
				n.unsupported = true
			}
		default:
			n.unsupported = true
		}
	}
}

func compileString(n *WalkNode, o *spec.Schema) {
	if strfmt.Default.ContainsName(o.Format) {
		n.format = o.Format
	}
	n.minLen = bound(o.MinLength)
	n.maxLen = bound(o.MaxLength)
	if o.Pattern != "" {
		re, err := regexp.Compile(o.Pattern)
		if err != nil {
			// The validator reports a broken pattern as an error on
			// every value; let it.
			n.unsupported = true
			return
		}
		n.pattern = re
		n.match = patternMatchers[o.Pattern]
	}
	for _, e := range o.Enum {
		v, ok := e.(string)
		if !ok {
			n.unsupported = true
			return
		}
		n.enum = append(n.enum, v)
	}
	if o.Minimum != nil || o.Maximum != nil {
		n.unsupported = true
	}
}

// compileInteger keeps a bound only when the validator compares it with
// an int64 value exactly as an int64 (an integral bound inside the
// format's range); any other bound is unsupported.
func compileInteger(n *WalkNode, o *spec.Schema) {
	n.int32 = o.Format == "int32"
	limit := float64(1 << 53)
	if n.int32 {
		limit = math.MaxInt32
	}
	exact := func(f float64) bool {
		return f == math.Trunc(f) && math.Abs(f) <= limit
	}
	if o.Minimum != nil {
		if !exact(*o.Minimum) {
			n.unsupported = true
			return
		}
		n.min, n.hasMin = int64(*o.Minimum), true
		if o.ExclusiveMinimum {
			n.min++
		}
	}
	if o.Maximum != nil {
		if !exact(*o.Maximum) {
			n.unsupported = true
			return
		}
		n.max, n.hasMax = int64(*o.Maximum), true
		if o.ExclusiveMaximum {
			n.max--
		}
	}
	if o.MinLength != nil || o.MaxLength != nil || o.Pattern != "" {
		n.unsupported = true
	}
	// The validator compares an int64 with each enum value converted to
	// the value's type; with int64 values that is plain equality.
	for _, e := range o.Enum {
		v, ok := e.(int64)
		if !ok {
			n.unsupported = true
			return
		}
		n.intEnum = append(n.intEnum, v)
	}
}

func bound(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// plainJSON reports whether v holds only the types decoded JSON has in
// gwsim (and that the walk copies): maps, slices, strings, bools, int64,
// float64; no nulls, which the library's defaulting treats specially
// inside a default.
func plainJSON(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range v {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	case string, bool, int64, float64:
		return true
	}
	return false
}
