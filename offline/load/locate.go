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

// locator finds the document of a file that an object was built from,
// for objects whose source a build or an annotation names. Each file is
// split and indexed once, however many objects name it: a build of a
// thousand routes from one file asks a thousand times.
type locator struct {
	files map[string]*fileIndex
}

// fileIndex is one file's documents by kind, in file order, with their
// names; exact finds a document by kind and name.
type fileIndex struct {
	byKind map[string][]named
	exact  map[[2]string]document
}

type named struct {
	name string
	doc  document
}

func newLocator() *locator { return &locator{files: map[string]*fileIndex{}} }

// locate finds the document of file (its bytes in data) that an object of
// kind and name was built from: the one of that kind and name, else the
// one whose name the built name contains (a namePrefix or nameSuffix
// added to it), the longest such name, else the first of that kind. ok is
// false when the file holds no document of that kind.
func (l *locator) locate(file string, data []byte, kind, name string) (document, bool) {
	n, ok := l.find(file, data, kind, name)
	return n.doc, ok
}

// find is locate, with the name the document found has.
func (l *locator) find(file string, data []byte, kind, name string) (named, bool) {
	idx := l.index(file, data)
	if d, ok := idx.exact[[2]string{kind, name}]; ok {
		return named{name: name, doc: d}, true
	}
	ofKind := idx.byKind[kind]
	if len(ofKind) == 0 {
		return named{}, false
	}
	best, bestLen := 0, -1
	for i, n := range ofKind {
		if n.name != "" && strings.Contains(name, n.name) && len(n.name) > bestLen {
			best, bestLen = i, len(n.name)
		}
	}
	return ofKind[best], true
}

// exact finds the document of file of that kind and name, and only that.
func (l *locator) exact(file string, data []byte, kind, name string) (document, bool) {
	d, ok := l.index(file, data).exact[[2]string{kind, name}]
	return d, ok
}

func (l *locator) index(file string, data []byte) *fileIndex {
	idx, ok := l.files[file]
	if !ok {
		idx = indexFile(file, data)
		l.files[file] = idx
	}
	return idx
}

func indexFile(file string, data []byte) *fileIndex {
	idx := &fileIndex{byKind: map[string][]named{}, exact: map[[2]string]document{}}
	docs, _ := split(file, data)
	for _, d := range docs {
		k, n := nodeIdentity(d.data)
		if k == "" {
			continue
		}
		idx.byKind[k] = append(idx.byKind[k], named{name: n, doc: d})
		if _, dup := idx.exact[[2]string{k, n}]; !dup {
			idx.exact[[2]string{k, n}] = d
		}
	}
	return idx
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
