package yamlout

import "slices"

// kind is what a node of the tree holds.
type kind uint8

const (
	kindNull kind = iota
	kindTrue
	kindFalse
	kindNumber  // span of the JSON number text in src
	kindString  // span of raw string content in src (no escapes, no breaks)
	kindDecoded // index into tree.decoded
	kindArray   // range of tree.kids
	kindObject  // range of tree.kids holding key, value pairs, sorted
)

// node is one JSON value. off and n mean a span of src, an index into
// decoded, or a range of kids, depending on kind. int32 keeps the tree
// small; Marshal falls back to sigs.k8s.io/yaml for documents too large
// for it.
type node struct {
	kind kind
	off  int32
	n    int32
}

// tree is the parsed JSON document: flat slices instead of a pointer tree,
// so that parsing a large document costs a few growing slices and not one
// allocation per value.
type tree struct {
	src     string
	decoded []string
	// kids holds the children of every container, each container's
	// contiguous: array items, or object keys and values alternating.
	kids []node

	// Scratch stacks that hold the children of the containers being parsed.
	items []node
	pairs []pair
}

// pair is a key and value of an object; seq is its position in the
// object, so that of two equal keys the last one wins.
type pair struct {
	k, v node
	seq  int32
}

// text returns the string content of a string node.
func (t *tree) text(n node) string {
	if n.kind == kindDecoded {
		return t.decoded[n.off]
	}
	return t.src[n.off : n.off+n.n]
}

// closeArray moves the items pushed since base into kids.
func (t *tree) closeArray(base int) node {
	off := len(t.kids)
	t.kids = append(t.kids, t.items[base:]...)
	n := len(t.items) - base
	t.items = t.items[:base]
	return node{kind: kindArray, off: int32(off), n: int32(n)}
}

// empty reports whether n holds nothing but nulls, empty objects and empty
// arrays.
func (t *tree) empty(n node) bool {
	switch n.kind {
	case kindNull:
		return true
	case kindArray:
		return n.n == 0
	case kindObject:
		for j := int32(0); j < n.n; j++ {
			if !t.empty(t.kids[n.off+2*j+1]) {
				return false
			}
		}
		return true
	}
	return false
}

// closeObject sorts the pairs pushed since base the way yaml.v2 sorts map
// keys and moves them into kids. A key given twice keeps its last value,
// as decoding JSON into a map does.
func (t *tree) closeObject(base int) node {
	ps := t.pairs[base:]
	slices.SortFunc(ps, func(a, b pair) int {
		ka, kb := t.text(a.k), t.text(b.k)
		if ka == kb {
			return int(a.seq - b.seq)
		}
		// keyLess never holds both ways nor neither way for distinct keys.
		if keyLess(ka, kb) {
			return -1
		}
		return 1
	})
	off := len(t.kids)
	for i, p := range ps {
		if i+1 < len(ps) && t.text(p.k) == t.text(ps[i+1].k) {
			continue
		}
		t.kids = append(t.kids, p.k, p.v)
	}
	n := (len(t.kids) - off) / 2
	t.pairs = t.pairs[:base]
	return node{kind: kindObject, off: int32(off), n: int32(n)}
}
