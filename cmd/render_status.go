package cmd

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/gwsim/gwsim/offline/scheme"
)

// statusObject is what `kubectl get -o yaml` shows of an object once spec is
// set aside: its type, its name and its status.
type statusObject struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   statusMetadata `json:"metadata"`
	// Status is the object's status: for YAML, as encoding/json writes it
	// (the YAML writer sorts keys itself, fast); for JSON, decoded into
	// maps, which encoding/json writes with sorted keys.
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

// renderStatus prints the status of every Gateway API object that has one,
// sorted by kind, namespace and name: a `---` separated YAML stream for text
// and yaml, a v1 List for json.
func renderStatus(w io.Writer, f format, objs []client.Object) error {
	items, err := statusObjects(objs, f)
	if err != nil {
		return err
	}
	if f == formatJSON {
		return writeJSON(w, statusList{APIVersion: "v1", Kind: "List", Items: items})
	}
	for i, it := range items {
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if err := writeYAML(w, it); err != nil {
			return err
		}
	}
	return nil
}

// statusObjects selects the Gateway API objects whose status says something
// and strips them to type, name and status.
func statusObjects(objs []client.Object, f format) ([]statusObject, error) {
	s := scheme.New()
	items := []statusObject{}
	kinds := map[reflect.Type]schema.GroupVersionKind{}
	for _, obj := range objs {
		gvk, ok := kinds[reflect.TypeOf(obj)]
		if !ok {
			var err error
			if gvk, err = objectGVK(obj, s); err != nil {
				return nil, err
			}
			kinds[reflect.TypeOf(obj)] = gvk
		}
		if !isGatewayAPIGroup(gvk.Group) {
			continue
		}
		field := reflect.ValueOf(obj).Elem().FieldByName("Status")
		if !field.IsValid() {
			continue
		}
		status, err := json.Marshal(field.Interface())
		if err != nil {
			return nil, fmt.Errorf("encoding the status of %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
		}
		var generic any
		if err := json.Unmarshal(status, &generic); err != nil {
			return nil, fmt.Errorf("reading the status of %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
		}
		if isEmptyValue(generic) {
			continue
		}
		if f != formatJSON {
			generic = json.RawMessage(status)
		}
		items = append(items, statusObject{
			APIVersion: gvk.GroupVersion().String(),
			Kind:       gvk.Kind,
			Metadata:   statusMetadata{Name: obj.GetName(), Namespace: obj.GetNamespace()},
			Status:     generic,
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

// isGatewayAPIGroup covers the standard and experimental Gateway API groups.
func isGatewayAPIGroup(group string) bool {
	return group == "gateway.networking.k8s.io" || group == "gateway.networking.x-k8s.io"
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
