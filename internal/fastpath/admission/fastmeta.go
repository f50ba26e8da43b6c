package admission

import (
	"unicode/utf8"

	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// objectMeta reads obj's metadata as schemaobjectmeta.GetObjectMeta does
// (a JSON round trip into ObjectMeta, which costs more than the rest of
// the fast walk), directly when the metadata holds only what manifests
// hold: name, generateName, namespace, labels and annotations, as valid
// UTF-8 strings. Anything else is read by the library.
func ObjectMeta(obj map[string]any) (*metav1.ObjectMeta, bool, error) {
	if meta, ok := PlainObjectMeta(obj["metadata"]); ok {
		return meta, true, nil
	}
	return schemaobjectmeta.GetObjectMeta(obj, false)
}

func PlainObjectMeta(v any) (*metav1.ObjectMeta, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	meta := &metav1.ObjectMeta{}
	for k, v := range m {
		switch k {
		case "name", "generateName", "namespace":
			s, ok := v.(string)
			if !ok || !utf8.ValidString(s) {
				return nil, false
			}
			switch k {
			case "name":
				meta.Name = s
			case "generateName":
				meta.GenerateName = s
			default:
				meta.Namespace = s
			}
		case "labels", "annotations":
			strs, ok := stringMap(v)
			if !ok {
				return nil, false
			}
			if k == "labels" {
				meta.Labels = strs
			} else {
				meta.Annotations = strs
			}
		default:
			return nil, false
		}
	}
	return meta, true
}

// stringMap is v as a map of strings, as decoding its JSON would give.
func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok || !utf8.ValidString(s) || !utf8.ValidString(k) {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}
