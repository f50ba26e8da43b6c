package load

import (
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
)

// identity is what locate compares: an object's kind and name.
type identity struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

// locate finds the document of file (its bytes in data) that an object of
// kind and name was built from, for an object whose source a build or an
// annotation names: the one document of that kind, else the one of that
// name, else the one whose name the built name contains (a namePrefix or
// nameSuffix added to it), the longest such name, else the first of that
// kind. ok is false when the file holds no document of that kind.
func locate(file string, data []byte, kind, name string) (document, bool) {
	docs, _ := split(file, data)
	var ofKind []document
	var names []string
	for _, d := range docs {
		k, n := nodeIdentity(d.data)
		if k != kind {
			continue
		}
		ofKind = append(ofKind, d)
		names = append(names, n)
	}
	if len(ofKind) == 0 {
		return document{}, false
	}
	best := 0
	bestLen := -1
	for i, n := range names {
		switch {
		case n == name:
			return ofKind[i], true
		case n != "" && strings.Contains(name, n) && len(n) > bestLen:
			best, bestLen = i, len(n)
		}
	}
	return ofKind[best], true
}

// nodeIdentity reads a document's kind and metadata.name from its YAML
// nodes, which keep aliases unexpanded: the files locate reads hold the
// documents a build's screen refused for their aliases too, which must
// not be expanded here either.
func nodeIdentity(data []byte) (kind, name string) {
	var root yamlv3.Node
	if yamlv3.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return "", ""
	}
	if k, _ := child(root.Content[0], "kind"); k != nil && k.Kind == yamlv3.ScalarNode {
		kind = k.Value
	}
	if m, _ := child(root.Content[0], "metadata"); m != nil {
		if n, _ := child(m, "name"); n != nil && n.Kind == yamlv3.ScalarNode {
			name = n.Value
		}
	}
	return kind, name
}
