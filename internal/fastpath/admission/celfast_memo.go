package admission

import (
	"encoding/binary"
	"math"
	"sort"
	"sync"
	"sync/atomic"
)

// Memo bounds. A node remembers at most memoEntries outcomes (then only
// looks up), and no key longer than memoKeyBytes (such values are
// evaluated each time): memory stays bounded whatever the input's size.
// The generated sets need a few dozen entries at most nodes.
const (
	memoEntries  = 4096
	memoKeyBytes = 2048
)

// celOutcome is what evaluating a node's rules on one value gave: whether
// every rule returned true, and the summed actual cost of the evaluations
// (what the library charges against the object's budget).
type celOutcome struct {
	passed bool
	cost   int64
}

// celMemo maps a value's key under a node's readSet to the outcome of the
// node's rules on it. Safe for concurrent use.
type celMemo struct {
	mu      sync.RWMutex
	entries map[string]celOutcome
	hits    atomic.Int64
	misses  atomic.Int64
}

func (m *celMemo) lookup(key []byte) (celOutcome, bool) {
	m.mu.RLock()
	out, ok := m.entries[string(key)]
	m.mu.RUnlock()
	if ok {
		m.hits.Add(1)
	} else {
		m.misses.Add(1)
	}
	return out, ok
}

func (m *celMemo) store(key []byte, out celOutcome) {
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[string]celOutcome{}
	}
	if len(m.entries) < memoEntries {
		m.entries[string(key)] = out
	}
	m.mu.Unlock()
}

// Key encoding. Every value is written with a tag byte first, strings and
// lists with their length, so that the encoding is a prefix code: two
// values encode alike only when they are alike in every part r covers.
const (
	tagAbsent byte = iota
	tagNull
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagObject
	tagList
)

// appendKey appends v's key under r to buf; ok is false for a value of a
// Go type JSON decoding does not produce (never memoised) or a key longer
// than memoKeyBytes.
func appendKey(buf []byte, v any, r *readSet) ([]byte, bool) {
	if r.whole {
		return appendWhole(buf, v)
	}
	switch v := v.(type) {
	case map[string]any:
		buf = append(buf, tagObject)
		for _, name := range r.order {
			child, ok := v[name]
			if !ok {
				buf = append(buf, tagAbsent)
				continue
			}
			var fine bool
			if buf, fine = appendKey(buf, child, r.fields[name]); !fine {
				return buf, false
			}
		}
		return buf, len(buf) <= memoKeyBytes
	case []any:
		buf = append(buf, tagList)
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		if r.elem == nil {
			return buf, true
		}
		for _, e := range v {
			var fine bool
			if buf, fine = appendKey(buf, e, r.elem); !fine {
				return buf, false
			}
		}
		return buf, len(buf) <= memoKeyBytes
	}
	return appendScalar(buf, v)
}

// appendWhole appends all of v, object fields in name order.
func appendWhole(buf []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case map[string]any:
		buf = append(buf, tagObject)
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			buf = appendString(buf, name)
			var fine bool
			if buf, fine = appendWhole(buf, v[name]); !fine {
				return buf, false
			}
		}
		return buf, len(buf) <= memoKeyBytes
	case []any:
		buf = append(buf, tagList)
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		for _, e := range v {
			var fine bool
			if buf, fine = appendWhole(buf, e); !fine {
				return buf, false
			}
		}
		return buf, len(buf) <= memoKeyBytes
	}
	return appendScalar(buf, v)
}

func appendScalar(buf []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(buf, tagNull), true
	case bool:
		if v {
			return append(buf, tagTrue), true
		}
		return append(buf, tagFalse), true
	case int64:
		return binary.AppendVarint(append(buf, tagInt), v), true
	case float64:
		return binary.BigEndian.AppendUint64(append(buf, tagFloat), math.Float64bits(v)), true
	case string:
		buf = appendString(append(buf, tagString), v)
		return buf, len(buf) <= memoKeyBytes
	}
	return buf, false
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}
