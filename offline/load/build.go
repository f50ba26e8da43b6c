package load

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gwsim/gwsim/offline/load/kustomize"
	"github.com/gwsim/gwsim/translate/diag"
)

// buildAll builds the kustomization directories among the inputs, in
// order, and drops what the builds cover: a file read by a build is not
// read again as a raw manifest, and a kustomization found under a
// directory that another build reaches as a base or component is not
// built on its own. Directories named with -k and files named with -f
// are always kept. A directory that does not build is an input error and
// yields nothing.
func buildAll(inputs []input, limits Limits) (kept []input, findings, errs []diag.Finding, used int64) {
	budget := &kustomize.Budget{FileBytes: limits.FileBytes, TotalBytes: limits.TotalBytes}
	reachedFiles := map[string]bool{}
	reachedDirs := map[string]bool{}
	for i := range inputs {
		in := &inputs[i]
		if !in.kustomize {
			continue
		}
		res, err := kustomize.Build(in.path, budget)
		findings = append(findings, res.Findings...)
		if err != nil {
			file, ok := kustomize.File(in.path)
			if !ok {
				file = in.path
			}
			errs = append(errs, diag.Finding{Severity: diag.Error, Source: diag.Source{File: file}, Reason: diag.ReasonBuildFailed,
				Message: "kustomize build failed: " + err.Error()})
			in.kustomize = false
			in.skip = true
			continue
		}
		in.built = &res
		for _, f := range res.Files {
			reachedFiles[f] = true
		}
		for _, d := range res.Kustomizations[1:] {
			reachedDirs[d] = true
		}
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
		case in.built != nil && in.found:
			file, _ := kustomize.File(in.path)
			findings = append(findings, diag.Finding{Severity: diag.Info, Source: diag.Source{File: file}, Reason: diag.ReasonBuilt,
				Message: fmt.Sprintf("built with kustomize, as kubectl apply -k would apply it, instead of reading the directory's files one by one (%d objects from %d files; --no-kustomize reads the files)",
					len(in.built.Objects), len(in.built.Files))})
		}
		kept = append(kept, in)
	}
	return kept, findings, errs, budget.Used()
}

// builtDocuments turns a build's objects into documents: each keeps the
// file it came from and the line of its document there, and that document
// is the one field lines are looked up in.
func builtDocuments(res *kustomize.Result) []document {
	docs := make([]document, 0, len(res.Objects))
	for _, o := range res.Objects {
		doc := document{file: o.File, data: o.JSON, json: true, noLines: true}
		if o.File == "" {
			doc.file = "<kustomize>"
		}
		if !o.Generated && o.Data != nil {
			var id identity
			if err := json.Unmarshal(o.JSON, &id); err == nil {
				if src, ok := locate(o.File, o.Data, id.Kind, id.Metadata.Name); ok {
					doc.line, doc.base = src.line, src.line
					doc.fields = &src
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
