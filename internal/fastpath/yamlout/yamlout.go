// Package yamlout writes Go values as YAML, byte for byte as
// sigs.k8s.io/yaml.Marshal does, but an order of magnitude faster and with
// a fraction of the memory.
//
// sigs.k8s.io/yaml.Marshal encodes the value as JSON, decodes that JSON
// with yaml.v2 into a generic tree (map[interface{}]interface{}), and
// encodes the tree with yaml.v2. On large documents that tree and yaml.v2's
// emitter dominate a gwsim run. This package reads the value into a flat
// tree of the values that JSON would decode to: by reflection, following
// encoding/json's rules, for the kinds gwsim prints (walk.go, plan.go), and through
// encoding/json and a parser of its output for everything else, so json
// tags, omitempty, omitzero and MarshalJSON behave the same. It then writes
// YAML directly,
// following yaml.v2's rules for key order, scalar styles, quoting, escapes,
// line folding at 80 columns and indentation. Where yaml.v2 fails on the
// JSON (control characters, nesting deeper than 10000, keys longer than
// 1024 characters) this package fails too, with its own message.
//
// One difference is deliberate: yaml.v2's key order is not transitive for
// some key sets ("v1alpha2" < "v2" < "v10" < "v1alpha2"), and
// sigs.k8s.io/yaml then prints such keys in an order that changes from run
// to run with Go's map order. This package prints them in one fixed order.
package yamlout

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"

	"sigs.k8s.io/yaml"
)

// Marshal returns the YAML encoding of v, identical to
// sigs.k8s.io/yaml.Marshal(v).
func Marshal(v any) ([]byte, error) {
	e := &Encoder{}
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return e.out, nil
}

// Encode writes the YAML encoding of v to w, identical to what
// sigs.k8s.io/yaml.Marshal(v) returns. It writes in chunks of about 64 KiB
// as it goes; on an error (from w, or a value that cannot be encoded) part
// of the document may have been written.
func Encode(w io.Writer, v any) error {
	return NewEncoder(w).Encode(v)
}

// Encoder writes YAML documents to a writer, each as Encode does, and
// keeps what it learnt of struct types and its buffer from one document to
// the next. It is not safe for concurrent use.
type Encoder struct {
	w     io.Writer
	out   []byte
	types types
}

// NewEncoder returns an Encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w}
}

// Reset makes the Encoder write to w from now on, keeping what it learnt
// of types.
func (enc *Encoder) Reset(w io.Writer) {
	enc.w = w
}

// Encode writes the YAML encoding of v, as the function Encode does.
func (enc *Encoder) Encode(v any) error {
	e := newEmitter(nil, enc.out[:0], enc.w)
	wk := enc.walker(e)
	if err := wk.root(v); err != nil {
		return err
	}
	e.writeIndent()
	e.flush(0)
	if enc.w != nil {
		e.out = e.out[:0]
	}
	enc.out = e.out
	return e.err
}

// Empty reports whether v encodes to nothing but nulls, empty objects and
// empty lists (a route status of `{parents: []}` says nothing). The error
// is encoding/json's, for a part of v that only it can encode.
func (enc *Encoder) Empty(v any) (bool, error) {
	wk := enc.walker(nil)
	return wk.empty(reflect.ValueOf(v))
}

func (enc *Encoder) walker(e *emitter) *walker {
	if enc.types.infos == nil {
		enc.types = newTypes()
	}
	return &walker{e: e, types: &enc.types}
}

// marshalJSONPath is Marshal as it was before the walker: encoding/json,
// then the parser. Tests compare the two.
func marshalJSONPath(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	return convert(j)
}

// convert turns compact JSON, as encoding/json writes it, into YAML.
func convert(j []byte) ([]byte, error) {
	j = escapeUnprintable(j)
	if len(j) >= math.MaxInt32 {
		// The tree indexes with int32; such documents are not worth a
		// second code path.
		return yaml.JSONToYAML(j)
	}
	t, root, err := parse(string(j))
	if err != nil {
		return nil, err
	}
	e := newEmitter(t, make([]byte, 0, len(j)+len(j)/4+16), nil)
	if err := e.document(root); err != nil {
		return nil, err
	}
	return e.out, nil
}
