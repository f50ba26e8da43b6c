package yamlout

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// maxDepth is yaml.v2's limit on nested flow collections; sigs.k8s.io/yaml
// reads JSON as YAML flow collections and fails past it.
const maxDepth = 10000

// maxSimpleKey is how many characters yaml.v2 lets an implicit key span,
// quotes included, before the ':' that ends it; a longer JSON key fails.
const maxSimpleKey = 1024

var errSyntax = errors.New("yamlout: unexpected JSON from encoding/json")

// parser reads compact JSON, as encoding/json writes it, into a tree with
// the values that yaml.v2 would decode from it: it fails where yaml.v2
// fails, and decodes strings as YAML double-quoted scalars, which differ
// from JSON strings for raw line breaks (U+0085 folds to a space).
type parser struct {
	t     *tree
	src   string
	pos   int
	depth int
	buf   []byte // scratch for decoded strings
}

// parse returns the tree of src and its root node.
func parse(src string) (*tree, node, error) {
	t := &tree{src: src, kids: make([]node, 0, len(src)/10+4)}
	p := &parser{t: t, src: src}
	root, err := p.value()
	if err != nil {
		return nil, node{}, err
	}
	if p.pos != len(src) {
		return nil, node{}, errSyntax
	}
	return t, root, nil
}

func (p *parser) value() (node, error) {
	if p.pos >= len(p.src) {
		return node{}, errSyntax
	}
	switch c := p.src[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		n, _, err := p.str()
		return n, err
	case 't':
		return p.literal("true", kindTrue)
	case 'f':
		return p.literal("false", kindFalse)
	case 'n':
		return p.literal("null", kindNull)
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return p.number()
		}
		return node{}, errSyntax
	}
}

func (p *parser) literal(word string, k kind) (node, error) {
	if len(p.src)-p.pos < len(word) || p.src[p.pos:p.pos+len(word)] != word {
		return node{}, errSyntax
	}
	p.pos += len(word)
	return node{kind: k}, nil
}

func (p *parser) number() (node, error) {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.pos++
			continue
		}
		break
	}
	return node{kind: kindNumber, off: int32(start), n: int32(p.pos - start)}, nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return fmt.Errorf("yaml: exceeded max depth of %d", maxDepth)
	}
	p.pos++
	return nil
}

func (p *parser) array() (node, error) {
	if err := p.enter(); err != nil {
		return node{}, err
	}
	t := p.t
	base := len(t.items)
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
	} else {
		for {
			v, err := p.value()
			if err != nil {
				return node{}, err
			}
			t.items = append(t.items, v)
			if p.pos >= len(p.src) {
				return node{}, errSyntax
			}
			c := p.src[p.pos]
			p.pos++
			if c == ']' {
				break
			}
			if c != ',' {
				return node{}, errSyntax
			}
		}
	}
	p.depth--
	return t.closeArray(base), nil
}

func (p *parser) object() (node, error) {
	if err := p.enter(); err != nil {
		return node{}, err
	}
	t := p.t
	base := len(t.pairs)
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
	} else {
		for {
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return node{}, errSyntax
			}
			start := p.pos
			kn, broken, err := p.str()
			if err != nil {
				return node{}, err
			}
			if broken || utf8.RuneCountInString(p.src[start:p.pos]) > maxSimpleKey {
				return node{}, errors.New("yaml: did not find expected ',' or '}' after a long or multi-line key")
			}
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return node{}, errSyntax
			}
			p.pos++
			v, err := p.value()
			if err != nil {
				return node{}, err
			}
			t.pairs = append(t.pairs, pair{k: kn, v: v, seq: int32(len(t.pairs) - base)})
			if p.pos >= len(p.src) {
				return node{}, errSyntax
			}
			c := p.src[p.pos]
			p.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				return node{}, errSyntax
			}
		}
	}
	p.depth--
	return t.closeObject(base), nil
}

// str reads the string at pos (an opening quote). broken reports a raw line
// break inside it, which makes the string unusable as a YAML simple key.
func (p *parser) str() (n node, broken bool, err error) {
	start := p.pos + 1
	for i := start; i < len(p.src); i++ {
		c := p.src[i]
		if c == '"' {
			p.pos = i + 1
			return node{kind: kindString, off: int32(start), n: int32(i - start)}, false, nil
		}
		if c == '\\' || c < 0x20 || c >= 0x7f {
			break
		}
	}
	s, broken, err := p.decodeString(start)
	if err != nil {
		return node{}, false, err
	}
	p.t.decoded = append(p.t.decoded, s)
	return node{kind: kindDecoded, off: int32(len(p.t.decoded) - 1)}, broken, nil
}
