package load

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load/flux"
	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// fluxObject is a Flux Kustomization found in the input, with where it is.
type fluxObject struct {
	flux.Kustomization
	src  diag.Source
	root string // the -f directory it was found under
}

// fluxScan is what the Flux step reads of the input before building:
// Kustomizations to follow and the ConfigMaps and Secrets substituteFrom
// may name.
type fluxScan struct {
	objects []fluxObject
	values  map[string]map[string]string
}

// scanFlux reads the raw files a walk listed that may hold a Flux
// Kustomization, ConfigMap or Secret, within the per-file byte limit,
// and the objects of the builds so far.
func scanFlux(inputs []input, limits Limits) fluxScan {
	s := fluxScan{values: map[string]map[string]string{}}
	for _, in := range inputs {
		if in.built != nil {
			for _, o := range in.built.Objects {
				s.add(o.JSON, diag.Source{File: o.File}, in.root)
			}
			continue
		}
		if !in.listed || in.skip {
			continue
		}
		info, err := os.Stat(in.path)
		if err != nil || !info.Mode().IsRegular() || info.Size() > limits.FileBytes {
			continue
		}
		data, err := os.ReadFile(in.path)
		if err != nil || !(bytes.Contains(data, []byte(flux.Group)) || bytes.Contains(data, []byte("ConfigMap")) || bytes.Contains(data, []byte("Secret"))) {
			continue
		}
		docs, _ := split(in.path, data)
		for _, d := range docs {
			js := d.data
			if !d.json && hasAlias(d.data) && expandedSize(d.data, limits.ExpandedBytes) >= limits.ExpandedBytes {
				// The reader refuses it when it comes to it; expanding
				// it here first would defeat that.
				continue
			}
			if !d.json {
				if js, err = yaml.YAMLToJSON(d.data); err != nil {
					continue
				}
			}
			s.add(js, diag.Source{File: d.file, Line: d.line}, in.root)
		}
	}
	slices.SortFunc(s.objects, func(a, b fluxObject) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.src.File, b.src.File), cmp.Compare(a.src.Line, b.src.Line))
	})
	s.objects = slices.CompactFunc(s.objects, func(a, b fluxObject) bool { return a.Namespace == b.Namespace && a.Name == b.Name })
	return s
}

func (s *fluxScan) add(js []byte, src diag.Source, root string) {
	if k, ok := flux.Parse(js); ok {
		s.objects = append(s.objects, fluxObject{Kustomization: k, src: src, root: root})
		return
	}
	if key, data, ok := flux.Values(js); ok {
		s.values[key] = data
	}
}

// fluxResult is what following the Flux Kustomizations yields.
type fluxResult struct {
	inputs             []input
	findings, errs     []diag.Finding
	reachedFiles       []string
	reachedDirs        []string
	unresolved, absent map[string]bool
	// followed counts the Kustomizations built.
	followed int
}

// followFlux builds the path of each Flux Kustomization as
// kustomize-controller would and substitutes its variables.
func followFlux(scan fluxScan, vars map[string]string, budget *kustomize.Budget, expansion *aliasBudget) fluxResult {
	r := fluxResult{unresolved: map[string]bool{}, absent: map[string]bool{}}
	for _, fo := range scan.objects {
		root, ok := flux.SourceRoot(fo.src.File, fo.root, fo.Path)
		if !ok {
			r.findings = append(r.findings, diag.Finding{Severity: diag.Warning, Source: fo.src, Reason: diag.ReasonNotBuilt,
				Object: diag.ObjectRef{Kind: "kustomize.toolkit.fluxcd.io/Kustomization", Namespace: fo.Namespace, Name: fo.Name}, Field: "spec.path",
				Message: fmt.Sprintf("spec.path %q is not a directory under the Git repository's top level or under any parent of %s; not followed", fo.Path, fo.root)})
			continue
		}
		dir := userPath(filepath.Join(root, fo.Path))
		opts := kustomize.Options{Namespace: fo.TargetNamespace, Append: fo.Append, Confine: root}
		if _, has := kustomize.File(dir); !has {
			opts.Generate = flux.Generate(dir, budget.FileBytes)
		}
		res, err := kustomize.Build(dir, budget, opts)
		r.findings = append(r.findings, res.Findings...)
		r.errs = append(r.errs, res.Errors...)
		ref := diag.ObjectRef{Kind: "kustomize.toolkit.fluxcd.io/Kustomization", Namespace: fo.Namespace, Name: fo.Name}
		if err != nil {
			r.errs = append(r.errs, diag.Finding{Severity: diag.Error, Source: fo.src, Object: ref, Reason: diag.ReasonBuildFailed,
				Message: "kustomize build of spec.path failed: " + err.Error()})
			continue
		}
		values, missing := fo.Vars(vars, scan.values)
		for _, m := range missing {
			r.absent[m] = true
		}
		var docs []document
		for _, doc := range builtDocuments(&res) {
			doc, refused := substitute(doc, values, r.unresolved, expansion)
			if refused != nil {
				r.errs = append(r.errs, *refused)
				continue
			}
			docs = append(docs, doc)
		}
		r.inputs = append(r.inputs, input{path: dir, built: &res, docs: docs})
		r.followed++
		r.reachedFiles = append(r.reachedFiles, res.Files...)
		r.reachedDirs = append(r.reachedDirs, res.Kustomizations...)
		how := "its kustomization"
		if opts.Generate != nil {
			how = fmt.Sprintf("a kustomization generated as Flux does (%d files)", len(opts.Generate))
		}
		target := ""
		if fo.TargetNamespace != "" {
			target = ", targetNamespace " + fo.TargetNamespace
		}
		r.findings = append(r.findings, diag.Finding{Severity: diag.Info, Source: fo.src, Object: ref, Reason: diag.ReasonBuilt,
			Message: fmt.Sprintf("followed as kustomize-controller applies it: built spec.path %s with %s%s, %d objects", fo.Path, how, target, len(docs))})
	}
	return r
}

// substitute applies Flux's post-build substitution to a built document,
// unless the object opts out with kustomize.toolkit.fluxcd.io/substitute:
// disabled. Names left unresolved are added to unresolved. What values
// add to the document is an expansion like an alias's (a long value
// referenced many times), so it counts against the same limits: the
// document is refused, with the error returned, when it would grow past
// the limit per document or what is left of the budget of all.
func substitute(doc document, vars map[string]string, unresolved map[string]bool, expansion *aliasBudget) (document, *diag.Finding) {
	if !bytes.Contains(doc.data, []byte("${")) || bytes.Contains(doc.data, []byte(`"kustomize.toolkit.fluxcd.io/substitute":"disabled"`)) {
		return doc, nil
	}
	y, err := yaml.JSONToYAML(doc.data)
	if err != nil {
		return doc, nil
	}
	growth := min(expansion.perDoc, expansion.total-expansion.used)
	out, names, ok := flux.Substitute(string(y), vars, len(y)+int(max(growth, 0)))
	if !ok {
		f := limitError(diag.Source{File: doc.file, Line: doc.line}, diag.ObjectRef{}, "", fmt.Sprintf(
			"Flux variables expand this %d-byte document by more than %d bytes (the limit per document, or what is left of --max-total-expanded-bytes); gwsim refuses it rather than run out of memory",
			len(y), growth))
		return doc, &f
	}
	for _, n := range names {
		unresolved[n] = true
	}
	expansion.used += max(int64(len(out)-len(y)), 0)
	doc.data, doc.json = []byte(out), false
	return doc, nil
}

// unresolvedFinding is the one info finding that lists the variables no
// value was given for.
func unresolvedFinding(r fluxResult) (diag.Finding, bool) {
	if len(r.unresolved) == 0 {
		return diag.Finding{}, false
	}
	var refs []string
	for n := range r.unresolved {
		refs = append(refs, flux.Reference(n))
	}
	slices.Sort(refs)
	msg := fmt.Sprintf("%d Flux variable%s without a value, each kept as a placeholder for one unknown DNS label (the same wherever it appears): %s; pass --var NAME=VALUE or --vars-file FILE to give values",
		len(refs), plural(len(refs), "", "s"), strings.Join(refs, ", "))
	if len(r.absent) > 0 {
		var names []string
		for n := range r.absent {
			names = append(names, n)
		}
		slices.Sort(names)
		msg += fmt.Sprintf(" (substituteFrom names %s, not in the input)", strings.Join(names, ", "))
	}
	return diag.Finding{Severity: diag.Info, Reason: diag.ReasonUnresolvedVariables, Message: msg}, true
}

// userPath names an absolute path relative to the working directory when
// it is below it, as a user would write it.
func userPath(abs string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return abs
}
