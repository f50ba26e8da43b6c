package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"

	"github.com/gwsim/gwsim/internal/fastpath"
)

// header is what the loader reads from a document before choosing a type:
// enough to name the object, skip kinds gwsim does not use and unpack Lists.
type header struct {
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	// badMetadata is set when metadata is not an object of strings; the
	// typed decoder then reports the exact problem.
	badMetadata bool
	hasItems    bool
	// hasMetadata says that the document has a metadata key at all: with
	// neither it nor a kind, a directory entry is not taken for an object
	// (see notAnObject).
	hasMetadata bool
	items       [][]byte
	// null marks an empty document (`~`), skipped like a blank one.
	null bool
}

// readHeader reads a document's header. The scan (scanHeader) answers for
// almost every document without decoding the spec; anything it is unsure
// of goes to readHeaderJSON, whose results and errors are the reference.
//
// converted says that js is what yamlin.Convert returned (or a List item
// in it): JSON as encoding/json writes it (well-formed, the keys of every
// object distinct and sorted), nested at most a few hundred deep, so that
// readHeaderJSON cannot fail on what follows the header's keys (its one
// error there, nesting deeper than maxJSONDepth, cannot happen): the scan
// stops after them instead of checking the spec.
func (d *decoder) readHeader(js []byte, converted bool) (header, error) {
	if d.fast.Fast(fastpath.JSONIn) {
		if h, ok := scanHeader(js, converted); ok {
			return h, nil
		}
	}
	return readHeaderJSON(js)
}

// readHeaderJSON reads the header as the API server would: with
// sigs.k8s.io/json, matching keys case-sensitively, so that `Kind:` or
// `Metadata:` is an unknown field here as it is to the typed decoder, not
// the object's kind or metadata. Its results and errors define what a
// header is.
func readHeaderJSON(js []byte) (header, error) {
	var h header
	if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
		h.null = true
		return h, nil
	}
	// RawMessage fields and no map: the spec is scanned but not copied.
	var top struct {
		APIVersion json.RawMessage `json:"apiVersion"`
		Kind       json.RawMessage `json:"kind"`
		Metadata   json.RawMessage `json:"metadata"`
		Items      json.RawMessage `json:"items"`
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &top); err != nil {
		if strings.Contains(err.Error(), "exceeded max depth") {
			return h, &depthError{}
		}
		return h, errNotMapping
	}
	for _, f := range []struct {
		key string
		raw json.RawMessage
		dst *string
	}{{"apiVersion", top.APIVersion, &h.APIVersion}, {"kind", top.Kind, &h.Kind}} {
		if f.raw != nil && kjson.UnmarshalCaseSensitivePreserveInts(f.raw, f.dst) != nil {
			return h, errors.New(f.key + " must be a string")
		}
	}
	if top.Metadata != nil {
		h.hasMetadata = true
		var meta struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		}
		h.badMetadata = kjson.UnmarshalCaseSensitivePreserveInts(top.Metadata, &meta) != nil
		h.Name, h.Namespace = meta.Name, meta.Namespace
	}
	if top.Items != nil {
		var items []json.RawMessage
		if kjson.UnmarshalCaseSensitivePreserveInts(top.Items, &items) != nil {
			return h, errors.New("items must be a list")
		}
		h.hasItems = true
		for _, it := range items {
			h.items = append(h.items, it)
		}
	}
	return h, nil
}

// errNotMapping is a document that is a list or a scalar, not an object.
var errNotMapping = errors.New("document is not a mapping; expected an object with apiVersion, kind and metadata")

// depthError is a document nested deeper than the API server decodes:
// an input limit, not a mistake in one object.
type depthError struct{}

func (*depthError) Error() string {
	return fmt.Sprintf("objects and lists nest more than %d deep; the API server refuses the document", maxJSONDepth)
}

// missing names the absent parts of apiVersion and kind.
func (h header) missing() string {
	switch {
	case h.APIVersion == "" && h.Kind == "":
		return "apiVersion and kind"
	case h.APIVersion == "":
		return "apiVersion"
	}
	return "kind"
}

// withTypeMeta fills in apiVersion and kind of a typed List's item when the
// item lacks them. Items that are not objects are returned as they are, for
// the decoder to report.
func withTypeMeta(item []byte, gvk schema.GroupVersionKind) []byte {
	if gvk.Kind == "" {
		return item
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil {
		return item
	}
	apiVersion, kind := gvk.GroupVersion().String(), gvk.Kind
	for key, val := range map[string]string{"apiVersion": apiVersion, "kind": kind} {
		if _, ok := m[key]; !ok {
			m[key], _ = json.Marshal(val)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return item
	}
	return out
}

// yamlMessage rewrites the parser's "line N", counted from the start of the
// document it was given, into the line of the file, flattens the message onto
// one line, and returns the first such line (0 if none).
func yamlMessage(msg string, base int) (int, string) {
	msg = strings.Join(strings.Fields(msg), " ")
	var b strings.Builder
	first := 0
	for {
		i := strings.Index(msg, "line ")
		if i < 0 {
			b.WriteString(msg)
			return first, b.String()
		}
		j := i + len("line ")
		k := j
		for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
			k++
		}
		b.WriteString(msg[:j])
		if n, err := strconv.Atoi(msg[j:k]); err == nil {
			abs := base + n - 1
			if first == 0 {
				first = abs
			}
			b.WriteString(strconv.Itoa(abs))
		}
		msg = msg[k:]
	}
}
