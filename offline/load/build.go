package load

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// gather lists the inputs of opts and runs their builds. A second pass
// over the same input (see loadAuto) takes them from cache: building
// again would cost as much as the first time and read the disk again,
// which may have changed in between.
func gather(opts Options, limits Limits, cache *inputCache) builds {
	if cache != nil && cache.builds != nil {
		return *cache.builds
	}
	files, errs := expand(opts.Paths, walkOptions{recursive: opts.Recursive, exclude: opts.Exclude, kustomize: !opts.NoKustomize})
	for _, k := range opts.Kustomize {
		files = append(files, input{path: k, kustomize: true})
	}
	b := buildAll(files, limits, opts.Recursive && !opts.NoKustomize, opts.Vars)
	b.errs = append(errs, b.errs...)
	if cache != nil {
		cache.builds = &b
	}
	return b
}

// buildAll builds the kustomization directories among the inputs, in
// order, then (with follow) follows the Flux Kustomizations of the input,
// and drops what the builds cover: a file read by a build is not read
// again as a raw manifest, and a kustomization found under a directory
// that another build reaches is not built on its own. Directories named
// with -k and files named with -f are always kept. A directory that does
// not build is an input error and yields nothing.
func buildAll(inputs []input, limits Limits, follow bool, vars map[string]string) (b builds) {
	aliases := &aliasBudget{perDoc: limits.ExpandedBytes, total: limits.TotalExpandedBytes}
	budget := &kustomize.Budget{FileBytes: limits.FileBytes, TotalBytes: limits.TotalBytes, Screen: screener(aliases)}
	reachedFiles := map[string]bool{}
	reachedDirs := map[string]bool{}
	for i := range inputs {
		in := &inputs[i]
		if !in.kustomize {
			continue
		}
		res, err := kustomize.Build(in.path, budget, kustomize.Options{})
		if err != nil {
			b.findings = append(b.findings, res.Findings...)
			b.errs = append(b.errs, res.Errors...)
			file, ok := kustomize.File(in.path)
			if !ok {
				file = in.path
			}
			b.errs = append(b.errs, diag.Finding{Severity: diag.Error, Source: diag.Source{File: file}, Reason: diag.ReasonBuildFailed,
				Message: "kustomize build failed: " + err.Error()})
			in.kustomize = false
			in.skip = true
			continue
		}
		in.built, in.docs = &res, builtDocuments(&res)
		for _, f := range res.Files {
			reachedFiles[f] = true
		}
		for _, d := range res.Kustomizations[1:] {
			reachedDirs[d] = true
		}
	}
	var fr fluxResult
	if follow {
		fr = followFlux(scanFlux(inputs, limits), vars, budget, aliases)
		for _, f := range fr.reachedFiles {
			reachedFiles[f] = true
		}
		for _, d := range fr.reachedDirs {
			reachedDirs[d] = true
		}
		b.findings = append(b.findings, fr.findings...)
		b.errs = append(b.errs, fr.errs...)
		if f, ok := unresolvedFinding(fr); ok {
			b.findings = append(b.findings, f)
		}
		for n := range fr.unresolved {
			b.placeholders = append(b.placeholders, n)
		}
		slices.Sort(b.placeholders)
	}
	for _, in := range inputs {
		abs, _ := filepath.Abs(in.path)
		switch {
		case in.skip:
			continue
		case in.listed && reachedFiles[abs]:
			continue
		case in.built != nil && in.found && reachedDirs[abs]:
			continue
		}
		if in.built != nil {
			b.findings = append(b.findings, in.built.Findings...)
			b.errs = append(b.errs, in.built.Errors...)
		}
		if in.built != nil && in.found {
			file, _ := kustomize.File(in.path)
			b.findings = append(b.findings, diag.Finding{Severity: diag.Info, Source: diag.Source{File: file}, Reason: diag.ReasonBuilt,
				Message: fmt.Sprintf("built with kustomize, as kubectl apply -k would apply it, instead of reading the directory's files one by one (%d %s from %d %s; --no-kustomize reads the files)%s",
					len(in.built.Objects), plural(len(in.built.Objects), "object", "objects"), len(in.built.Files), plural(len(in.built.Files), "file", "files"), unbuilt(in))})
		}
		b.inputs = append(b.inputs, in)
	}
	b.inputs = append(b.inputs, fr.inputs...)
	b.fluxFollowed = fr.followed
	// A file two builds read is screened by each: its findings are said
	// once.
	b.findings, b.errs = slices.Compact(diag.Sort(b.findings)), slices.Compact(diag.Sort(b.errs))
	b.spent = spent{bytes: budget.Used(), expanded: aliases.used}
	return b
}

// builds is what buildAll yields.
type builds struct {
	inputs         []input
	findings, errs []diag.Finding
	// spent is what the builds used of the limits the reader applies
	// to the rest of the input.
	spent spent
	// placeholders are the Flux variables left without a value, sorted.
	placeholders []string
	// fluxFollowed counts the Flux Kustomizations followed: their effect
	// is simulated, so the ignored-kinds finding does not count them.
	fluxFollowed int
}

// builtDocuments turns a build's objects into documents: each keeps the
// file it came from and the line of its document there, and that document
// is the one field lines are looked up in.
func builtDocuments(res *kustomize.Result) []document {
	docs := make([]document, 0, len(res.Objects))
	loc := newLocator()
	for _, o := range res.Objects {
		doc := document{file: o.File, data: o.JSON, json: true, noLines: true, built: true}
		if o.File == "" {
			doc.file = "<kustomize>"
		}
		if !o.Generated && o.Data != nil {
			var id identity
			if err := json.Unmarshal(o.JSON, &id); err == nil {
				if src, ok := loc.find(o.File, o.Data, id.Kind, id.Metadata.Name); ok {
					doc.line, doc.base = src.doc.line, src.doc.line
					doc.fields = &src.doc
					doc.patches = patchDocuments(loc, res.Read, o.File, id.Kind, id.Metadata.Name, src.name)
				}
			}
		}
		docs = append(docs, doc)
	}
	return docs
}

// isBuildRoot reports whether dir is a kustomization directory that the
// walk should build rather than list.
func isBuildRoot(dir string) bool {
	_, ok := kustomize.File(dir)
	return ok
}

// unbuilt names the manifest files beside a kustomization that its build
// did not read (a values file, a manifest the kustomization does not
// list): kubectl apply -k does not apply them, so they are not read, and
// the finding says so rather than pass over them in silence.
func unbuilt(in input) string {
	var out []string
	for _, p := range in.siblings {
		abs, err := filepath.Abs(p)
		if _, read := slices.BinarySearch(in.built.Files, abs); err == nil && !read {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ""
	}
	n, more := len(out), ""
	if n > maxSkippedListed {
		more = fmt.Sprintf(" and %d more", n-maxSkippedListed)
		out = out[:maxSkippedListed]
	}
	return fmt.Sprintf("; %d %s beside it %s not in the build, so not read: %s%s",
		n, plural(n, "file", "files"), plural(n, "is", "are"), strings.Join(out, ", "), more)
}

// patchDocuments finds, in the files a build read other than the object's
// own, the documents of its kind named as the object is, or as the
// document it was built from is (a strategic merge patch names the
// object as its base does): the patches that may have set its fields.
func patchDocuments(loc *locator, read []kustomize.Source, own, kind string, names ...string) []document {
	var out []document
	for _, src := range read {
		if src.File == own {
			continue
		}
		for _, n := range slices.Compact(names) {
			if d, ok := loc.exact(src.File, src.Data, kind, n); ok {
				out = append(out, d)
				break
			}
		}
	}
	return out
}
