package yamlin

import (
	"bytes"
	"slices"
)

// mapping reads a block mapping whose keys sit at column col, the first at
// at. Its JSON is an object with keys sorted bytewise, as encoding/json
// writes the map[string]interface{} that sigs.k8s.io/yaml builds; a
// repeated key (after keys are turned into strings) bails, since the
// strict slow path reports it or the map's iteration order decides it.
func (p *parser) mapping(col, at int) bool {
	base, keyBase := len(p.ents), len(p.keys)
	objStart := len(p.out)
	p.out = append(p.out, '{')
	for {
		end, next := p.lineAt(p.pos)
		colon := p.keyColon(at, end)
		if colon < 0 || colon-at > maxKey {
			return false
		}
		keyStart := len(p.keys)
		var ok bool
		if p.keys, ok = p.key(p.keys, at, colon); !ok {
			return false
		}
		seg := len(p.out)
		p.out = appendString(p.out, p.keys[keyStart:])
		p.out = append(p.out, ':')
		if !p.value(colon+1, end, next, col, true) {
			return false
		}
		p.ents = append(p.ents, entry{segStart: seg, segEnd: len(p.out), keyStart: keyStart, keyEnd: len(p.keys)})
		ind := p.peek()
		if ind < col {
			break
		}
		at = p.pos + col
		if ind > col || p.isDash(at) {
			return false
		}
		p.out = append(p.out, ',')
	}
	if !p.sortEntries(base, objStart) {
		return false
	}
	p.ents, p.keys = p.ents[:base], p.keys[:keyBase]
	return true
}

// sortEntries finishes the object started at objStart whose entries are
// ents[base:], putting them in key order unless they already are.
func (p *parser) sortEntries(base, objStart int) bool {
	ents := p.ents[base:]
	key := func(e entry) []byte { return p.keys[e.keyStart:e.keyEnd] }
	sorted := true
	for i := 1; i < len(ents); i++ {
		c := bytes.Compare(key(ents[i-1]), key(ents[i]))
		if c == 0 {
			return false
		}
		if c > 0 {
			sorted = false
		}
	}
	if sorted {
		p.out = append(p.out, '}')
		return true
	}
	// Insertion sort allocates nothing and suits the small mappings of
	// manifests; a large one (a ConfigMap's data) needs better.
	if len(ents) > 32 {
		slices.SortFunc(ents, func(a, b entry) int { return bytes.Compare(key(a), key(b)) })
	}
	for i := 1; i < len(ents); i++ {
		for j := i; j > 0 && bytes.Compare(key(ents[j-1]), key(ents[j])) > 0; j-- {
			ents[j-1], ents[j] = ents[j], ents[j-1]
		}
	}
	for i := 1; i < len(ents); i++ {
		if bytes.Equal(key(ents[i-1]), key(ents[i])) {
			return false
		}
	}
	body := objStart + 1
	p.tmp = append(p.tmp[:0], p.out[body:]...)
	p.out = p.out[:body]
	for i, e := range ents {
		if i > 0 {
			p.out = append(p.out, ',')
		}
		p.out = append(p.out, p.tmp[e.segStart-body:e.segEnd-body]...)
	}
	p.out = append(p.out, '}')
	return true
}

// key appends the raw string of the key in src[at:colon] to dst, as
// sigs.k8s.io/yaml turns it into a JSON object key.
func (p *parser) key(dst []byte, at, colon int) ([]byte, bool) {
	s := p.src
	switch s[at] {
	case '"':
		if colon < 1 || s[colon-1] != '"' {
			return dst, false
		}
		return appendDouble(dst, s[at+1:colon-1])
	case '\'':
		if colon < 1 || s[colon-1] != '\'' {
			return dst, false
		}
		return appendSingle(dst, s[at+1:colon-1]), true
	}
	if !plainStart(s, at, colon) {
		return dst, false
	}
	k := bytes.TrimRight(s[at:colon], " ")
	switch r, n := resolvePlain(k); r {
	case resolvedString:
		return append(dst, k...), true
	case resolvedTrue:
		return append(dst, "true"...), true
	case resolvedFalse:
		return append(dst, "false"...), true
	case resolvedInt:
		return appendInt(dst, n), true
	}
	return dst, false
}

// plainStart reports whether a plain scalar may start at s[at] (up to end)
// in block context, leaving out the indicators that could start one too
// ('?' and ':' followed by a non-space).
func plainStart(s []byte, at, end int) bool {
	switch s[at] {
	case '-':
		return at+1 < end && s[at+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// sequence reads a block sequence whose entries sit at column col, the
// first at at.
func (p *parser) sequence(col, at int) bool {
	p.out = append(p.out, '[')
	for {
		end, next := p.lineAt(p.pos)
		i := at + 1
		for i < end && p.src[i] == ' ' {
			i++
		}
		if i == end || p.src[i] == '#' {
			p.pos = next
			if ind := p.peek(); ind > col {
				if !p.node(ind, p.pos+ind, col, true) {
					return false
				}
			} else {
				p.out = append(p.out, "null"...)
			}
		} else if !p.node(i-p.pos, i, col, false) {
			return false
		}
		ind := p.peek()
		if ind > col {
			return false
		}
		if ind < col || !p.isDash(p.pos+col) {
			break
		}
		at = p.pos + col
		p.out = append(p.out, ',')
	}
	p.out = append(p.out, ']')
	return true
}

// value reads what follows a key's ':' at at; parent is the mapping's
// column. A value on the following lines is a nested collection, or a
// sequence at the mapping's own column; nothing there is null.
func (p *parser) value(at, end, next, parent int, indentless bool) bool {
	for at < end && p.src[at] == ' ' {
		at++
	}
	if at < end && p.src[at] != '#' {
		return p.scalar(at, end, next, parent)
	}
	p.pos = next
	ind := p.peek()
	switch {
	case ind > parent:
		return p.node(ind, p.pos+ind, parent, true)
	case ind == parent && indentless && p.isDash(p.pos+ind):
		if p.depth++; p.depth > maxDepth {
			return false
		}
		defer func() { p.depth-- }()
		return p.sequence(ind, p.pos+ind)
	}
	p.out = append(p.out, "null"...)
	return true
}

// scalar reads a scalar that starts at at on the current line and writes
// its JSON; parent is the enclosing collection's column. It consumes the
// line (and a block scalar's lines).
func (p *parser) scalar(at, end, next, parent int) bool {
	s := p.src
	switch s[at] {
	case '"', '\'':
		var close int
		if s[at] == '"' {
			close = skipDouble(s, at+1, end)
		} else {
			close = skipSingle(s, at+1, end)
		}
		if close < 0 {
			return p.quotedLines(at, parent)
		}
		if close < 0 || !restIsBlank(s, close, end) {
			return false
		}
		if !p.quoted(s[at:close]) {
			return false
		}
		p.pos = next
		return true
	case '|', '>':
		p.pos = next
		return p.blockScalar(at, end, parent)
	case '[', '{':
		if !p.flow(at, end) {
			return false
		}
		p.pos = next
		return true
	}
	if !plainStart(s, at, end) {
		return false
	}
	i := at
	for ; i < end; i++ {
		if s[i] == '#' && s[i-1] == ' ' {
			break
		}
	}
	text := bytes.TrimRight(s[at:i], " ")
	if text[len(text)-1] == ':' || bytes.Contains(text, []byte(": ")) {
		return false
	}
	p.pos = next
	if i == end {
		var ok bool
		if text, ok = p.plainContinued(text, parent); !ok {
			return false
		}
	}
	return p.plain(text)
}
