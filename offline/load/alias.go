package load

import (
	"bytes"

	yamlv3 "go.yaml.in/yaml/v3"
)

// expandedSize estimates the bytes of JSON a YAML document becomes once
// its aliases are expanded, without expanding them: each anchored node's
// size is computed once and an alias adds it again. It stops counting at
// limit, so an exponential alias bomb costs no more than a flat document.
// It returns 0 for a document without both an anchor and an alias, and
// for one the YAML parser cannot read (the conversion then reports it).
//
// The YAML parser's own alias check counts aliases, not bytes: one large
// scalar anchored once and aliased a thousand times passes it and expands
// to gigabytes. That is what this measures first.
func expandedSize(doc []byte, limit int64) int64 {
	if bytes.IndexByte(doc, '&') < 0 || bytes.IndexByte(doc, '*') < 0 {
		return 0
	}
	var root yamlv3.Node
	if yamlv3.Unmarshal(doc, &root) != nil {
		return 0
	}
	m := sizer{limit: limit, anchored: map[*yamlv3.Node]int64{}}
	return m.size(&root)
}

// sizer measures nodes. The estimate is JSON's: a scalar costs its text
// and two quotes, a collection its brackets and a separator per entry.
type sizer struct {
	limit    int64
	anchored map[*yamlv3.Node]int64
}

func (m *sizer) size(n *yamlv3.Node) int64 {
	if n == nil {
		return 0
	}
	if n.Kind == yamlv3.AliasNode {
		return m.size(n.Alias)
	}
	if n.Anchor != "" {
		if s, ok := m.anchored[n]; ok {
			return s
		}
	}
	var s int64
	switch n.Kind {
	case yamlv3.ScalarNode:
		s = int64(len(n.Value)) + 2
	default:
		s = 2
		for _, c := range n.Content {
			s = m.add(s, m.size(c)+1)
			if s >= m.limit {
				break
			}
		}
	}
	if n.Anchor != "" {
		m.anchored[n] = s
	}
	return s
}

// add adds without overflowing: sizes saturate at the limit.
func (m *sizer) add(a, b int64) int64 {
	if a >= m.limit || b >= m.limit || a+b >= m.limit {
		return m.limit
	}
	return a + b
}
