package load

import (
	"bytes"
	"fmt"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/diag"
)

// aliasBudget measures the alias expansion of each document before any
// worker expands it, against the limit per document and the budget of
// the whole input: without the second, N documents each just under the
// first hold N times it. The reader measures the documents one by one in
// input order, so which document crosses the budget depends on the input
// alone, never on the workers' timing. It is used by the reader only.
type aliasBudget struct {
	perDoc, total int64
	// used is what the documents admitted so far expand to.
	used int64
}

// refuse measures doc and returns the input error that refuses it, or
// nil when it may be expanded (its expansion then counts against the
// budget). Only a document with an alias (see hasAlias) is parsed.
func (b *aliasBudget) refuse(doc document) *diag.Finding {
	if doc.json || !hasAlias(doc.data) {
		return nil
	}
	n := expandedSize(doc.data, b.perDoc)
	src := diag.Source{File: doc.file, Line: doc.line}
	switch {
	case n >= b.perDoc:
		f := limitError(src, diag.ObjectRef{}, "", fmt.Sprintf(
			"aliases expand this %d-byte document to more than %d bytes; gwsim refuses it rather than run out of memory",
			len(doc.data), b.perDoc))
		return &f
	case n > b.total-b.used:
		before := ""
		if b.used > 0 {
			before = fmt.Sprintf(", and the documents before it to %d", b.used)
		}
		f := limitError(src, diag.ObjectRef{}, "", fmt.Sprintf(
			"aliases expand this %d-byte document to %d bytes%s: more than %s in total (--max-total-expanded-bytes); gwsim refuses it rather than run out of memory",
			len(doc.data), n, before, byteSize(b.total)))
		return &f
	}
	b.used += n
	return nil
}

// hasAlias reports whether data may hold a YAML alias: a `*` where a node
// can start (at the start of a line or after a space, a tab or a flow
// indicator). It never misses one, and it passes over the `*` of quoted
// wildcard hostnames ("*.example.com"), which most manifests have.
func hasAlias(data []byte) bool {
	if bytes.IndexByte(data, '&') < 0 {
		return false
	}
	for i := bytes.IndexByte(data, '*'); i >= 0; {
		if i == 0 {
			return true
		}
		switch data[i-1] {
		case ' ', '\t', '\n', '\r', '[', '{', ',', ':':
			return true
		}
		next := bytes.IndexByte(data[i+1:], '*')
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

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
