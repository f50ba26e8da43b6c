package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/gwsim/gwsim/diag"
)

// document is one YAML or JSON document of an input file.
type document struct {
	file string
	// line is the document's source line: its first content line (not blank,
	// not a comment, not a directive). For a document that starts on its
	// `---` line (`--- {…}`), that line.
	line int
	// base is the line number of data[0]; the YAML parser's "line N" in
	// error messages is relative to it.
	base int
	data []byte
	// json marks data as JSON already, so no YAML conversion is needed.
	json bool
	// listed marks a directory entry's document (see input.listed): one
	// that is not a Kubernetes object is skipped, not an error.
	listed bool
	// fields, when set, is the document whose lines field paths are
	// looked up in: the source document of a built object, whose own
	// data has no lines a user could open.
	fields *document
	// helmSource is the template a `# Source: chart/templates/x.yaml`
	// comment above the content names (helm template's output).
	helmSource string
	// patches are the documents of other files of the build that name the
	// same object (strategic merge patches): a field a patch sets points
	// at the patch (see fieldSource).
	patches []document
	// built marks a document a kustomize build made: SOPS-encrypted
	// content among them is skipped, as among a directory's files.
	built bool
	// noLines says the document's lines are not those of file (a Helm
	// template, or an origin whose file could not be read): findings
	// name the file without a line.
	noLines bool
}

// split cuts a file's bytes into documents. A file whose first byte (after
// a BOM and white space) is `{` is read as a stream of JSON values, as
// kubectl does; if the first value does not parse as JSON, the file is read
// as YAML after all (`{a: b}` is a YAML flow mapping).
func split(file string, data []byte) ([]document, []diag.Finding) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		if docs, errs, ok := splitJSON(file, data); ok {
			return docs, errs
		}
	}
	return splitYAML(file, data), nil
}

// splitYAML cuts YAML at `---` and `...` lines itself, rather than leaving
// it to the parser, so that every document knows the line it starts on and
// documents can be decoded in parallel. Documents with no content (empty,
// comment-only) are dropped.
func splitYAML(file string, data []byte) []document {
	var docs []document
	cur := document{file: file, base: 1}
	start := 0 // offset of cur's first byte
	flush := func(end int) {
		if cur.line != 0 {
			cur.data = data[start:end]
			docs = append(docs, cur)
		}
	}
	for pos, n := 0, 1; pos < len(data); n++ {
		end := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		line := bytes.TrimRight(data[pos:end], "\r\n")
		switch kind := classify(line); kind {
		case lineSeparator, lineEnd, lineSeparatorWithContent:
			flush(pos)
			cur = document{file: file, base: n + 1}
			start = end
			if kind == lineSeparatorWithContent {
				cur = document{file: file, base: n, line: n}
				start = pos
			}
		case lineContent:
			if cur.line == 0 {
				cur.line = n
			}
		case lineBlank:
			if src, ok := bytes.CutPrefix(line, []byte("# Source: ")); ok && cur.line == 0 {
				cur.helmSource = string(bytes.TrimSpace(src))
			}
		}
		pos = end
	}
	flush(len(data))
	return docs
}

// lineKind is what a line means to the splitter.
type lineKind int

const (
	lineBlank lineKind = iota // blank, comment or directive
	lineContent
	lineSeparator            // `---`, optionally followed by a comment
	lineSeparatorWithContent // `--- value`: the document starts on this line
	lineEnd                  // `...`, the document end marker
)

func classify(line []byte) lineKind {
	for _, marker := range []string{"---", "..."} {
		rest, ok := bytes.CutPrefix(line, []byte(marker))
		if !ok || (len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest = bytes.TrimSpace(rest)
		switch {
		case len(rest) == 0 || rest[0] == '#':
			if marker == "..." {
				return lineEnd
			}
			return lineSeparator
		case marker == "---":
			return lineSeparatorWithContent
		}
	}
	t := bytes.TrimLeft(line, " \t")
	if len(t) == 0 || t[0] == '#' || t[0] == '%' {
		return lineBlank
	}
	return lineContent
}

// splitJSON reads data as a stream of JSON values. ok is false when the
// first value is not JSON. A later value that does not parse ends the file
// with an error finding at its line.
func splitJSON(file string, data []byte) (docs []document, errs []diag.Finding, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lines := lineCounter{data: data}
	for {
		var raw json.RawMessage
		off := int(dec.InputOffset())
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return docs, nil, true
		}
		if err != nil {
			if len(docs) == 0 {
				return nil, nil, false
			}
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				off = int(syn.Offset)
			}
			src := diag.Source{File: file, Line: lines.at(off)}
			return docs, []diag.Finding{parseError(src, diag.ObjectRef{}, err.Error())}, true
		}
		for off < len(data) && isSpace(data[off]) {
			off++
		}
		line := lines.at(off)
		docs = append(docs, document{file: file, line: line, base: line, data: raw, json: true})
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// lineCounter turns increasing byte offsets into 1-based line numbers
// without rescanning from the start each time.
type lineCounter struct {
	data []byte
	pos  int
	line int
}

func (c *lineCounter) at(off int) int {
	off = min(off, len(c.data))
	if off < c.pos {
		c.pos, c.line = 0, 0
	}
	c.line += bytes.Count(c.data[c.pos:off], []byte("\n"))
	c.pos = off
	return c.line + 1
}
