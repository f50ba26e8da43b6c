package load

import (
	"cmp"
	"hash/maphash"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/offline/validate"
)

// Origins are the inputs a load read, under the names sources give them:
// enough to find a field's line again for the findings that point at
// one, once the run is over, without holding every input's bytes through
// it. A file is read again only when a finding needs a line in it, and
// its lines are used only when it still holds what was loaded (same size
// and hash); an input that cannot be read twice (stdin, a FIFO such as
// `-f <(kustomize build)`) is kept.
type Origins struct {
	seed  maphash.Seed
	files map[string]stamp
	kept  map[string][]byte
	limit int64
	// patches are the strategic merge patches of each built object that
	// has some: a field a patch holds is found there, not in the base.
	patches map[diag.ObjectRef][]diag.Source
}

// stamp identifies the bytes a file held when it was loaded.
type stamp struct {
	size int
	sum  uint64
}

func newOrigins(limits Limits) *Origins {
	return &Origins{seed: maphash.MakeSeed(), files: map[string]stamp{}, kept: map[string][]byte{}, limit: limits.FileBytes, patches: map[diag.ObjectRef][]diag.Source{}}
}

// record notes that the input name held data, which can be read again
// from name when again is set. It is called by the reader only, before
// the load returns.
func (o *Origins) record(name string, data []byte, again bool) {
	if !again {
		o.kept[name] = data
		return
	}
	o.files[name] = stamp{size: len(data), sum: maphash.Bytes(o.seed, data)}
}

// read returns the bytes name held when it was loaded, or false when they
// are gone (the file changed, or was not read by this load).
func (o *Origins) read(name string) ([]byte, bool) {
	if data, ok := o.kept[name]; ok {
		return data, true
	}
	st, ok := o.files[name]
	if !ok {
		return nil, false
	}
	data, err := ReadFile(name, o.limit)
	if err != nil || len(data) != st.size || maphash.Bytes(o.seed, data) != st.sum {
		return nil, false
	}
	return data, true
}

// FieldLines puts findings at the line of the field they are about: the
// Locus when a finding has one, else its Field of its Object. Only a
// finding at its object's document start (sources) moves, or one with no
// source whose Locus names an object of the input; a finding the loader
// placed already keeps its line, and so does one whose field the
// document does not show. It changes fs in place: the caller sorts them
// after. Files are read and parsed on GOMAXPROCS goroutines, each file by
// one, so that a run with a finding on every route pays for the parsing
// once per core. A field of a built object that one of its patches holds
// whole is found in the patch (kustomize applies patches last, so the
// value is the patch's).
func (o *Origins) FieldLines(fs []diag.Finding, sources diag.Sources) {
	if o == nil {
		return
	}
	byFile := map[string][]int{}
	patchDocs := map[string]*parsedDocs{}
	for i, f := range fs {
		owner, path := locus(f)
		src, ok := sources[owner]
		if !ok || src.Line == 0 || !isSpecPath(path) {
			continue
		}
		if f.Source != src && (f.Source != diag.Source{} || f.Locus.Object == diag.ObjectRef{}) {
			continue
		}
		if at, ok := o.inPatch(patchDocs, o.patches[owner], path); ok {
			fs[i].Source = at
			continue
		}
		fs[i].Source = src
		byFile[src.File] = append(byFile[src.File], i)
	}
	files := make(chan string)
	var wg sync.WaitGroup
	var bug crash.First
	for range min(runtime.GOMAXPROCS(0), len(byFile)) {
		wg.Go(func() {
			for file := range files {
				bug.Catch(func() { o.placeIn(file, byFile[file], fs) })
			}
		})
	}
	for file := range byFile {
		files <- file
	}
	close(files)
	wg.Wait()
	bug.Raise()
}

// placeIn moves the findings fs[idx], all at documents of file, to their
// field's line. Each index is written by one goroutine only.
func (o *Origins) placeIn(file string, idx []int, fs []diag.Finding) {
	data, ok := o.read(file)
	if !ok {
		return
	}
	docs := docsByLine(file, data)
	for _, i := range idx {
		owner, path := locus(fs[i])
		if line, ok := docs.line(fs[i].Source.Line, owner, path); ok {
			fs[i].Source.Line = line
		}
	}
}

// inPatch finds the first of patches that holds the field at path whole.
// parsed keeps each patch file's documents for the next finding.
func (o *Origins) inPatch(parsed map[string]*parsedDocs, patches []diag.Source, path string) (diag.Source, bool) {
	for _, p := range patches {
		docs, ok := parsed[p.File]
		if !ok {
			if data, read := o.read(p.File); read {
				docs = docsByLine(p.File, data)
			}
			parsed[p.File] = docs
		}
		if docs == nil {
			continue
		}
		if line, whole := docs.wholeField(p.Line, path); whole {
			return diag.Source{File: p.File, Line: line}, true
		}
	}
	return diag.Source{}, false
}

// locus is the object and field a finding points at.
func locus(f diag.Finding) (diag.ObjectRef, string) {
	if f.Locus.Field != "" {
		return cmp.Or(f.Locus.Object, f.Object), f.Locus.Field
	}
	return f.Object, f.Field
}

// isSpecPath reports whether path names a field a document may show:
// status is written by gwsim, never read from the input.
func isSpecPath(path string) bool {
	return path != "" && path != "status" && !strings.HasPrefix(path, "status.") && !strings.HasPrefix(path, "status[")
}

// parsedDocs are a file's documents by their first line, each parsed once
// when a finding first needs it.
type parsedDocs struct {
	docs   map[int]document
	parsed map[int]*yaml.Node
}

func docsByLine(file string, data []byte) *parsedDocs {
	docs, _ := split(file, data)
	p := &parsedDocs{docs: make(map[int]document, len(docs)), parsed: map[int]*yaml.Node{}}
	for _, d := range docs {
		p.docs[d.line] = d
	}
	return p
}

// line is the line of path in owner, the object of the document starting
// at start (an item of it, when the document is a List).
func (p *parsedDocs) line(start int, owner diag.ObjectRef, path string) (int, bool) {
	doc, root := p.root(start)
	if root == nil {
		return 0, false
	}
	return nodeLine(root, doc.base, listItem(root, owner)+path)
}

// wholeField is the line of path in the document starting at start when
// the document holds all of it (not only a parent of it).
func (p *parsedDocs) wholeField(start int, path string) (int, bool) {
	doc, root := p.root(start)
	if root == nil {
		return 0, false
	}
	segs := validate.PathSegments(path)
	line, depth := nodeDepth(root, doc.base, segs)
	return line, depth == len(segs) && depth > 0
}

// root is the document starting at start and its parsed root, parsed on
// the first call; root is nil when there is no such document or it does
// not parse.
func (p *parsedDocs) root(start int) (document, *yaml.Node) {
	doc, ok := p.docs[start]
	if !ok {
		return document{}, nil
	}
	root, ok := p.parsed[start]
	if !ok {
		root = parseDocument(doc)
		p.parsed[start] = root
	}
	return doc, root
}

// listItem is the path prefix of owner's item (`items[3].`) when root is
// a List, or "" when it is not one or holds no such item.
func listItem(root *yaml.Node, owner diag.ObjectRef) string {
	items, _ := child(root, "items")
	if items == nil || items.Kind != yaml.SequenceNode {
		return ""
	}
	for i, item := range items.Content {
		meta, _ := child(item, "metadata")
		if meta == nil {
			continue
		}
		name, _ := child(meta, "name")
		kind, _ := child(item, "kind")
		if name != nil && name.Value == owner.Name && (kind == nil || kind.Value == owner.Kind) {
			return "items[" + strconv.Itoa(i) + "]."
		}
	}
	return ""
}
