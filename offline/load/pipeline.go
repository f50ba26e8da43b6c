package load

import (
	"fmt"
	"io"
	"iter"
	"runtime"
	"sync"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/internal/fastpath/jsonin"
	"github.com/gwsim/gwsim/internal/fastpath/yamlin"
)

// decodeAll reads the files one at a time, splits each into documents and
// decodes the documents on GOMAXPROCS workers, since decoding YAML is what
// takes the time. Results come back indexed by document order, so the output
// never depends on scheduling. Only one file's bytes are held by the reader
// at a time (decoded objects are kept, of course).
func decodeAll(inputs []input, stdin io.Reader, used spent, d *decoder, cache *inputCache, origins *Origins) (docs *decodedDocs, readErrs, readFindings []diag.Finding) {
	type result struct {
		idx int
		out decoded
	}
	jobs := make(chan job, 256)
	results := make(chan result, 256)
	// readErrs and readFindings are written by the reader only, and read
	// after results close.
	// A panic on any goroutine here is re-raised on the caller's, once
	// all are done; a worker that panics on one document goes on with the
	// next, so that the reader is never left blocked.
	var bug crash.First
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		bug.Catch(func() {
			readAll(inputs, stdin, d.limits, used, jobs, &readErrs, &readFindings, cache, d.probe, origins)
		})
	})
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var ws workspace
			decode := func(j job) {
				var out decoded
				if d.probe.stopped() {
					// The pass is discarded (see loadAuto).
					results <- result{idx: j.idx}
					return
				}
				bug.Catch(func() { out = d.document(j.doc, &ws) })
				results <- result{idx: j.idx, out: out}
			}
			// Documents whose kind another worker is compiling wait
			// until the rest is done (see waitsForCompile).
			var postponed []job
			for j := range jobs {
				if len(postponed) < maxPostponed && d.waitsForCompile(j.doc) {
					postponed = append(postponed, j)
					continue
				}
				decode(j)
			}
			for _, j := range postponed {
				decode(j)
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	out := &decodedDocs{}
	for r := range results {
		out.set(r.idx, r.out)
	}
	bug.Raise()
	return out, readErrs, readFindings
}

// decodedDocs holds what each document yields, by document number, in
// chunks: growing one slice of them copied each result some four times
// over (about 20 MB at 10k routes).
type decodedDocs struct {
	chunks [][]decoded
	n      int
}

const decodedChunk = 1024

func (ds *decodedDocs) set(i int, d decoded) {
	for len(ds.chunks) <= i/decodedChunk {
		ds.chunks = append(ds.chunks, make([]decoded, decodedChunk))
	}
	ds.chunks[i/decodedChunk][i%decodedChunk] = d
	ds.n = max(ds.n, i+1)
}

// all yields the documents' results in document order.
func (ds *decodedDocs) all() iter.Seq[*decoded] {
	return func(yield func(*decoded) bool) {
		for i := range ds.n {
			if !yield(&ds.chunks[i/decodedChunk][i%decodedChunk]) {
				return
			}
		}
	}
}

// workspace is one decoding worker's scratch space, kept from one
// document to the next.
type workspace struct {
	conv yamlin.Converter
	maps jsonin.Scratch
}

// readAll reads the inputs in order, splits each into documents and
// sends them, numbered, to jobs, but for those whose aliases would expand
// past a limit. Only one input's bytes are held at a time.
func readAll(inputs []input, stdin io.Reader, limits Limits, used spent, jobs chan<- job, readErrs, readFindings *[]diag.Finding, cache *inputCache, probe *channelProbe, origins *Origins) {
	idx := 0
	r := reader{limits: limits, stdin: stdin, cache: cache, total: used.bytes}
	aliases := aliasBudget{perDoc: limits.ExpandedBytes, total: limits.TotalExpandedBytes, used: used.expanded}
	prov := provenance{r: &r, files: map[string][]byte{}, loc: newLocator(), origins: origins}
	for i, in := range inputs {
		if probe.stopped() {
			return
		}
		if r.exhausted {
			*readErrs = append(*readErrs, unreadInputs(inputs[i:], limits))
			return
		}
		if in.built != nil {
			for _, doc := range in.docs {
				jobs <- job{idx: idx, doc: doc}
				idx++
			}
			continue
		}
		name, data, again, problem := r.read(in)
		if problem != nil && problem.Severity != diag.Error {
			*readFindings = append(*readFindings, *problem)
			continue
		}
		if problem != nil {
			*readErrs = append(*readErrs, *problem)
			continue
		}
		origins.record(name, data, again)
		docs, errs := split(name, data)
		// A JSON value that does not parse loses the rest of its file,
		// which the error says; the other inputs are read.
		*readFindings = append(*readFindings, errs...)
		for _, doc := range docs {
			if refused := aliases.refuse(doc); refused != nil {
				*readErrs = append(*readErrs, *refused)
				continue
			}
			doc.listed = in.listed
			jobs <- job{idx: idx, doc: prov.resolve(doc)}
			idx++
		}
	}
}

// job is one document to decode, numbered in input order.
type job struct {
	idx int
	doc document
}

// unreadInputs is the one error for the inputs left unread once the
// total limit is reached, named after the first of them.
func unreadInputs(rest []input, limits Limits) diag.Finding {
	name := rest[0].path
	if name == "-" {
		name = stdinName
	}
	return limitError(diag.Source{File: name}, diag.ObjectRef{}, "", fmt.Sprintf(
		"not read, nor %d more inputs after it: the inputs before it reach the limit of %s in total (--max-total-bytes)",
		len(rest)-1, byteSize(limits.TotalBytes)))
}
