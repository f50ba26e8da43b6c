package yamlout

import (
	"bytes"
	"io"
	"reflect"
	"sync"
)

// A document cut into parts that encode independently, so that a long
// document encodes on every core and streams in order.
//
// Why a cut is byte-safe: in block YAML the emitter begins every sequence
// item and every mapping entry with writeIndent, and after writeIndent its
// state is always the same for a given indentation (the cursor at the
// indentation, after whitespace, in indentation), whatever was written
// before. What was written before decides only the bytes of that
// writeIndent itself: a line break or not, and how many spaces. So a part
// that starts at a writeIndent encodes alone from that state, and the
// bytes of its leading writeIndent are worked out when it is joined to
// the part before it, from where that part left the cursor (lead).

// Split is the YAML document of a value cut into parts: every sequence of
// more than run items is cut into runs of at most run items, encoded as
// parts of their own, and what lies around the runs (the skeleton) is
// encoded when the Split is made. Encoding every part with EncodePart, on
// any goroutines, and writing them in order with WritePart gives exactly
// the bytes Encode writes; a value Encode fails on fails in the skeleton
// or in a part, with the same error.
type Split struct {
	parts []part
	// ends[i] is where part i leaves the cursor: set when the Split is
	// made for skeleton parts, by EncodePart for runs.
	ends     []cursor
	encoders sync.Pool
}

// cursor is the state of the emitter that a following writeIndent reads.
type cursor struct {
	column     int
	whitespace bool
	indention  bool
}

// part is a piece of the skeleton (text) or a run of items of a sequence.
type part struct {
	text []byte
	// lead is set on every part but the first: it starts with a
	// writeIndent at indent, written by WritePart.
	lead   bool
	indent int
	run    bool
	seq    reflect.Value
	from   int
	to     int
	depth  int
	ptrs   int
}

// splitter is the walker's state while it encodes a skeleton.
type splitter struct {
	s    *Split
	run  int
	open int // where the open skeleton part starts in the emitter's output
	// pending is set after a run: the skeleton's next writeIndent opens a
	// new part instead of writing.
	pending bool
}

// Split cuts v's document into parts, sequences of more than run items
// into runs of run items (run ≥ 1), and encodes the skeleton. The Split
// keeps v: v must not change until its parts are encoded.
func (enc *Encoder) Split(v any, run int) (*Split, error) {
	s := &Split{parts: []part{{}}, ends: []cursor{{}}}
	e := newEmitter(nil, nil, nil)
	sp := &splitter{s: s, run: max(run, 1)}
	e.split = sp
	wk := enc.walker(e)
	wk.split = sp
	if err := wk.root(v); err != nil {
		return nil, err
	}
	e.writeIndent()
	sp.close(e)
	return s, nil
}

// cut ends the open skeleton part and adds the runs of seq's items, whose
// block sequence is at indent; the walker is depth containers and ptrs
// pointers deep.
func (sp *splitter) cut(e *emitter, seq reflect.Value, indent, depth, ptrs int) {
	if !sp.pending {
		sp.close(e)
	}
	s := sp.s
	for from := 0; from < seq.Len(); from += sp.run {
		s.parts = append(s.parts, part{lead: true, indent: indent, run: true, seq: seq,
			from: from, to: min(seq.Len(), from+sp.run), depth: depth, ptrs: ptrs})
		s.ends = append(s.ends, cursor{})
	}
	sp.pending = true
}

// resume opens a skeleton part at the writeIndent that follows a run.
func (sp *splitter) resume(e *emitter) {
	sp.pending = false
	sp.s.parts = append(sp.s.parts, part{lead: true, indent: e.indent})
	sp.s.ends = append(sp.s.ends, cursor{})
	sp.open = len(e.out)
	e.column = max(e.indent, 0)
	e.whitespace = true
	e.indention = true
}

// close ends the open skeleton part.
func (sp *splitter) close(e *emitter) {
	last := len(sp.s.parts) - 1
	sp.s.parts[last].text = e.out[sp.open:len(e.out):len(e.out)]
	sp.s.ends[last] = e.cursor()
	sp.open = len(e.out)
}

func (e *emitter) cursor() cursor {
	return cursor{column: e.column, whitespace: e.whitespace, indention: e.indention}
}

// Len is the number of parts.
func (s *Split) Len() int { return len(s.parts) }

// EncodePart writes part i, without its leading writeIndent, to out. Parts
// may be encoded concurrently, each once.
func (s *Split) EncodePart(i int, out *bytes.Buffer) error {
	p := &s.parts[i]
	if !p.run {
		out.Write(p.text)
		return nil
	}
	enc, _ := s.encoders.Get().(*Encoder)
	if enc == nil {
		enc = &Encoder{types: newTypes()}
	}
	defer s.encoders.Put(enc)
	e := newEmitter(nil, enc.out[:0], out)
	e.indent = p.indent
	e.column = max(p.indent, 0)
	wk := enc.walker(e)
	wk.depth, wk.ptrs = p.depth, p.ptrs
	elem := wk.info(p.seq.Type().Elem())
	for k := p.from; k < p.to; k++ {
		if k > p.from {
			e.writeIndent()
		}
		e.writeIndicator("-", true, false, true)
		if err := wk.value(p.seq.Index(k), elem, ctxSequence); err != nil {
			return err
		}
	}
	e.flush(0)
	enc.out = e.out[:0]
	s.ends[i] = e.cursor()
	return e.err
}

// WritePart writes part i, as EncodePart wrote it to b, to w after the
// leading writeIndent that joins it to part i-1. Call it for each part in
// order, each after EncodePart of the part before it has returned.
func (s *Split) WritePart(w io.Writer, i int, b []byte) error {
	p := &s.parts[i]
	if p.lead {
		prev := s.ends[i-1]
		indent := max(p.indent, 0)
		var arr [80]byte
		lead := arr[:0]
		column := prev.column
		if !prev.indention || column > indent || column == indent && !prev.whitespace {
			lead = append(lead, '\n')
			column = 0
		}
		for ; column < indent; column++ {
			lead = append(lead, ' ')
		}
		if _, err := w.Write(lead); err != nil {
			return err
		}
	}
	_, err := w.Write(b)
	return err
}
