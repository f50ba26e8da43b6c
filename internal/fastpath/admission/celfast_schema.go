package admission

import (
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiserver/pkg/cel/common"
)

// celSchema is the structural schema as CEL's value conversion
// (common.UnstructuredToVal) reads it, with every answer computed once.
// The library's adapter (model.Structural) rebuilds the Properties map and
// a new adapter per child on each call, and UnstructuredToVal asks for it
// on every field access: that was a fifth of validation's CPU. A celSchema
// tree is built once per compiled CRD version, never changed after, so it
// is safe for concurrent use.
//
// The answers are the library adapter's, delegated to it where they are
// not on the hot path (value validations, which CEL conversion does not
// read).
type celSchema struct {
	lib        *model.Structural
	properties map[string]common.Schema
	items      common.Schema
	additional common.SchemaOrBool
	// withMeta is the schema with apiVersion, kind and metadata.name and
	// generateName added, as the library builds it for a resource root;
	// built on first need by newCELSchema's caller, nil otherwise.
	withMeta common.Schema
}

// celSchemaOrBool is additionalProperties: a schema or a boolean.
type celSchemaOrBool struct {
	schema common.Schema
	allows bool
}

func (b *celSchemaOrBool) Schema() common.Schema { return b.schema }
func (b *celSchemaOrBool) Allows() bool          { return b.allows }

// newCELSchema adapts s and everything below it. Embedded resources get
// their type and object metadata added, as UnstructuredToVal asks for.
func newCELSchema(s *structuralschema.Structural) *celSchema {
	c := &celSchema{lib: &model.Structural{Structural: s}}
	if s.Properties != nil {
		c.properties = make(map[string]common.Schema, len(s.Properties))
		for name := range s.Properties {
			prop := s.Properties[name]
			c.properties[name] = newCELSchema(&prop)
		}
	}
	if s.Items != nil {
		c.items = newCELSchema(s.Items)
	}
	if s.AdditionalProperties != nil {
		b := &celSchemaOrBool{allows: s.AdditionalProperties.Bool}
		if s.AdditionalProperties.Structural != nil {
			b.schema = newCELSchema(s.AdditionalProperties.Structural)
		}
		c.additional = b
	}
	if s.XEmbeddedResource {
		c.withMeta = newCELSchema(model.WithTypeAndObjectMeta(s))
	}
	return c
}

// resourceRoot returns the schema of a resource root: s with type and
// object metadata, as the library's validator binds self there.
func resourceRoot(s *structuralschema.Structural) *celSchema {
	c := newCELSchema(model.WithTypeAndObjectMeta(s))
	c.withMeta = c
	return c
}

func (c *celSchema) Type() string   { return c.lib.Type() }
func (c *celSchema) Format() string { return c.lib.Format() }
func (c *celSchema) Items() common.Schema {
	return c.items
}
func (c *celSchema) Properties() map[string]common.Schema { return c.properties }
func (c *celSchema) AdditionalProperties() common.SchemaOrBool {
	return c.additional
}
func (c *celSchema) Default() any { return c.lib.Default() }

func (c *celSchema) Pattern() string                       { return c.lib.Pattern() }
func (c *celSchema) Minimum() *float64                     { return c.lib.Minimum() }
func (c *celSchema) IsExclusiveMinimum() bool              { return c.lib.IsExclusiveMinimum() }
func (c *celSchema) Maximum() *float64                     { return c.lib.Maximum() }
func (c *celSchema) IsExclusiveMaximum() bool              { return c.lib.IsExclusiveMaximum() }
func (c *celSchema) MultipleOf() *float64                  { return c.lib.MultipleOf() }
func (c *celSchema) MinItems() *int64                      { return c.lib.MinItems() }
func (c *celSchema) MaxItems() *int64                      { return c.lib.MaxItems() }
func (c *celSchema) MinLength() *int64                     { return c.lib.MinLength() }
func (c *celSchema) MaxLength() *int64                     { return c.lib.MaxLength() }
func (c *celSchema) MinProperties() *int64                 { return c.lib.MinProperties() }
func (c *celSchema) MaxProperties() *int64                 { return c.lib.MaxProperties() }
func (c *celSchema) Required() []string                    { return c.lib.Required() }
func (c *celSchema) Enum() []any                           { return c.lib.Enum() }
func (c *celSchema) Nullable() bool                        { return c.lib.Nullable() }
func (c *celSchema) UniqueItems() bool                     { return c.lib.UniqueItems() }
func (c *celSchema) AllOf() []common.Schema                { return c.lib.AllOf() }
func (c *celSchema) OneOf() []common.Schema                { return c.lib.OneOf() }
func (c *celSchema) AnyOf() []common.Schema                { return c.lib.AnyOf() }
func (c *celSchema) Not() common.Schema                    { return c.lib.Not() }
func (c *celSchema) IsXIntOrString() bool                  { return c.lib.IsXIntOrString() }
func (c *celSchema) IsXEmbeddedResource() bool             { return c.lib.IsXEmbeddedResource() }
func (c *celSchema) IsXPreserveUnknownFields() bool        { return c.lib.IsXPreserveUnknownFields() }
func (c *celSchema) XListType() string                     { return c.lib.XListType() }
func (c *celSchema) XListMapKeys() []string                { return c.lib.XListMapKeys() }
func (c *celSchema) XMapType() string                      { return c.lib.XMapType() }
func (c *celSchema) XValidations() []common.ValidationRule { return c.lib.XValidations() }

// WithTypeAndObjectMeta is the resource-root form of the schema. Only
// embedded resources and roots ask for it; anything else gets the
// library's answer, built anew.
func (c *celSchema) WithTypeAndObjectMeta() common.Schema {
	if c.withMeta != nil {
		return c.withMeta
	}
	return c.lib.WithTypeAndObjectMeta()
}

var _ common.Schema = (*celSchema)(nil)
