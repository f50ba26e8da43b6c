package cmd

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/gwsim/gwsim/internal/fastpath/yamlout"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/profile"
)

// statusObject is what `kubectl get -o yaml` shows of an object once spec is
// set aside: its type, its name and its status.
type statusObject struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   statusMetadata `json:"metadata"`
	// Status is the object's status: for YAML, a pointer to the object's
	// own status, which yamlout reads in place; for JSON, its encoding
	// with sorted keys (as encoding/json writes maps).
	Status any `json:"status"`
}

type statusMetadata struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// statusList is the JSON shape kubectl uses for several objects.
type statusList struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Items      []statusObject `json:"items"`
}

// statusChunk is how many objects one piece of the YAML status stream
// holds: pieces are encoded on every core and written in order.
const statusChunk = 256

// renderStatus prints the status of every Gateway API object that has one,
// sorted by kind, namespace and name: a `---` separated YAML stream for text
// and yaml, a v1 List for json.
func renderStatus(w io.Writer, f format, objs []client.Object) error {
	if f == formatJSON {
		items, err := statusObjects(w, objs, f)
		if err != nil {
			return err
		}
		return writeJSON(w, statusList{APIVersion: "v1", Kind: "List", Items: items})
	}
	p, err := statusPieces(w, objs)
	if err != nil {
		return err
	}
	return writePieces(w, p)
}

// statusPieces is the YAML status stream in pieces of statusChunk objects.
// Every printed object is preceded by "---" but the first; pieces do not
// know whether the pieces before them printed anything, so each writes
// the separator and the first one written is dropped.
func statusPieces(w io.Writer, objs []client.Object) (pieces, error) {
	if yamlLib, _ := libraryEncoders(w); yamlLib {
		return statusLibraryPiece(w, objs)
	}
	items, err := statusEntries(objs)
	if err != nil {
		return pieces{}, err
	}
	var encoders sync.Pool // an Encoder keeps what it learnt of the types
	dropped := false
	return pieces{
		n: (len(items) + statusChunk - 1) / statusChunk,
		render: func(i int, buf *bytes.Buffer) error {
			enc, _ := encoders.Get().(*yamlout.Encoder)
			if enc == nil {
				enc = yamlout.NewEncoder(nil)
			}
			defer encoders.Put(enc)
			enc.Reset(buf)
			for _, it := range items[i*statusChunk : min(len(items), (i+1)*statusChunk)] {
				empty, err := enc.Empty(it.Status)
				if err != nil {
					return statusError(it, err)
				}
				if empty {
					continue
				}
				buf.WriteString(statusSeparator)
				if err := enc.Encode(it); err != nil {
					return statusError(it, err)
				}
			}
			return nil
		},
		write: func(w io.Writer, _ int, b []byte) error {
			if !dropped && len(b) > 0 {
				if !bytes.HasPrefix(b, []byte(statusSeparator)) {
					return fmt.Errorf("bug: status output does not start with %q", statusSeparator)
				}
				dropped = true
				b = b[len(statusSeparator):]
			}
			_, err := w.Write(b)
			return err
		},
	}, nil
}

const statusSeparator = "---\n"

// statusLibraryPiece is the YAML status stream through sigs.k8s.io/yaml,
// in one piece: the reference statusPieces is held to.
func statusLibraryPiece(w io.Writer, objs []client.Object) (pieces, error) {
	items, err := statusObjects(w, objs, formatYAML)
	if err != nil {
		return pieces{}, err
	}
	var out bytes.Buffer
	for i, it := range items {
		if i > 0 {
			out.WriteString(statusSeparator)
		}
		b, err := yamlout.MarshalLibrary(it)
		if err != nil {
			return pieces{}, statusError(it, err)
		}
		out.Write(b)
	}
	return textPiece(out.String()), nil
}

func statusError(it statusObject, err error) error {
	return fmt.Errorf("encoding the status of %s %s/%s: %w", it.Kind, it.Metadata.Namespace, it.Metadata.Name, err)
}

// statusObjects selects the Gateway API objects whose status says something
// and strips them to type, name and status.
func statusObjects(w io.Writer, objs []client.Object, f format) ([]statusObject, error) {
	items, err := statusEntries(objs)
	if err != nil {
		return nil, err
	}
	kept := items[:0]
	enc := yamlout.NewEncoder(nil)
	yamlLib, _ := libraryEncoders(w)
	for _, it := range items {
		if f != formatJSON && !yamlLib {
			empty, err := enc.Empty(it.Status)
			if err != nil {
				return nil, statusError(it, err)
			}
			if !empty {
				kept = append(kept, it)
			}
			continue
		}
		status, err := json.Marshal(it.Status)
		if err != nil {
			return nil, statusError(it, err)
		}
		var generic any
		if err := json.Unmarshal(status, &generic); err != nil {
			return nil, fmt.Errorf("reading the status of %s %s/%s: %w", it.Kind, it.Metadata.Namespace, it.Metadata.Name, err)
		}
		if isEmptyValue(generic) {
			continue
		}
		if f != formatJSON {
			kept = append(kept, it)
			continue
		}
		// Kept as the maps' own encoding (sorted keys), not as the maps:
		// encoding/json writes the same bytes for either, and 10k
		// statuses' maps held whole until the document is written cost
		// far more than their JSON.
		sorted, err := json.Marshal(generic)
		if err != nil {
			return nil, statusError(it, err)
		}
		it.Status = json.RawMessage(sorted)
		kept = append(kept, it)
	}
	return kept, nil
}

// statusEntries returns the Gateway API objects that have a status,
// sorted, each with a pointer to its status (which may be empty).
func statusEntries(objs []client.Object) ([]statusObject, error) {
	s := scheme.New()
	items := []statusObject{}
	type kind struct {
		gvk        schema.GroupVersionKind
		apiVersion string
	}
	kinds := map[reflect.Type]kind{}
	for _, obj := range objs {
		k, ok := kinds[reflect.TypeOf(obj)]
		if !ok {
			gvk, err := objectGVK(obj, s)
			if err != nil {
				return nil, err
			}
			k = kind{gvk: gvk, apiVersion: gvk.GroupVersion().String()}
			kinds[reflect.TypeOf(obj)] = k
		}
		gvk := k.gvk
		if !hasStatusOfGwsim(gvk.GroupKind()) {
			continue
		}
		field := reflect.ValueOf(obj).Elem().FieldByName("Status")
		if !field.IsValid() {
			continue
		}
		items = append(items, statusObject{
			APIVersion: k.apiVersion,
			Kind:       gvk.Kind,
			Metadata:   statusMetadata{Name: obj.GetName(), Namespace: obj.GetNamespace()},
			Status:     field.Addr().Interface(),
		})
	}
	slices.SortFunc(items, func(a, b statusObject) int {
		return cmp.Or(
			cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Metadata.Namespace, b.Metadata.Namespace),
			cmp.Compare(a.Metadata.Name, b.Metadata.Name),
			cmp.Compare(a.APIVersion, b.APIVersion),
		)
	})
	return items, nil
}

// objectGVK trusts the object's own type meta when set; objects read back
// from a client usually have it cleared, so the scheme names them instead.
func objectGVK(obj client.Object, s *runtime.Scheme) (schema.GroupVersionKind, error) {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" && gvk.Version != "" {
		return gvk, nil
	}
	gvk, err := apiutil.GVKForObject(obj, s)
	if err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("bug: naming the type of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	return gvk, nil
}

// hasStatusOfGwsim reports whether gwsim writes the status of objects of
// kind gk: the kinds of the standard and experimental Gateway API groups,
// and Envoy Gateway's Backend and policies, whose status the envoy-gateway
// profile writes as Envoy Gateway does.
func hasStatusOfGwsim(gk schema.GroupKind) bool {
	return gk.Group == "gateway.networking.k8s.io" || gk.Group == "gateway.networking.x-k8s.io" || gk == profile.BackendKind ||
		slices.Contains(profile.PolicyKinds(), gk)
}

// isEmptyValue reports whether v holds nothing but nulls, empty maps and
// empty lists: a route whose parents all belong to other controllers has
// `status: {parents: []}`, which says nothing.
func isEmptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range v {
			if !isEmptyValue(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}
