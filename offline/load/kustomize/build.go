// Package kustomize builds Kustomize directories in-process for the loader,
// as `kubectl kustomize` (kubectl's defaults: load restrictions to the
// kustomization's root, built-in plugins only) would, and says where each
// built object came from.
//
// What it changes, and why:
//   - No network and no external program: a remote base (a URL, a git
//     address) and a helmCharts entry are taken out of a copy of the
//     kustomization before kustomize reads it, each with a warning, and the
//     rest is built. Exec and KRM function plugins are not enabled, so a
//     kustomization that needs one fails to build, with kustomize's error.
//   - Bounded: kustomize reads the disk through a file system that reads
//     only regular files, within a byte Budget, and writes nothing. Each
//     file is screened by the loader before kustomize parses it
//     (Budget.Screen), so that a document the loader would leave out
//     (one that does not parse, one whose aliases expand past the limit)
//     is left out of the build alone rather than failing all of it.
//   - Sources: origin annotations (buildMetadata: [originAnnotations]) are
//     turned on for the build, read into Object.File, and taken off the
//     objects again unless the kustomization asked for them itself.
//
// kyaml keeps the OpenAPI schema a kustomization may name in a package
// variable (behind a lock); a build that sets its own schema changes it for
// builds after it in the same process.
package kustomize

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/gwsim/gwsim/diag"
)

// Object is one built object.
type Object struct {
	// JSON is the object as kustomize built it, without gwsim's origin
	// annotation.
	JSON []byte
	// File is the file the object was read from, named as the user would
	// (the build directory as given, joined with the origin's path), or
	// the kustomization that generated it; Data is that file's bytes, so
	// that the loader can find the object's line in it.
	File string
	Data []byte
	// Generated says a generator in File made the object (a
	// configMapGenerator), so it has no document of its own there.
	Generated bool
}

// Result is what one build yields.
type Result struct {
	Objects []Object
	// Files are the absolute paths of every file the build read, sorted.
	Files []string
	// Read are the files the build read but its kustomization files, named
	// as the user would, sorted: where a patch that changed an object may
	// be found.
	Read []Source
	// Kustomizations are the absolute directories whose kustomization file
	// the build read (its own first), sorted after the first.
	Kustomizations []string
	// Findings are warnings about what was not built, and the findings
	// of Budget.Screen about documents left out; Errors are
	// Budget.Screen's input errors.
	Findings, Errors []diag.Finding
}

// Source is a file a build read, and its bytes as on disk.
type Source struct {
	File string
	Data []byte
}

// File returns the kustomization file of dir and whether it has one, in
// kustomize's order of preference.
func File(dir string) (string, bool) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.Mode().IsRegular() {
			return filepath.Join(dir, name), true
		}
	}
	return "", false
}

// Options change a build as Flux's kustomize-controller changes it; the
// zero value builds as kubectl kustomize does.
type Options struct {
	// Namespace, when set, is the namespace the build's kustomization
	// sets (Flux's targetNamespace).
	Namespace string
	// Generate builds a directory without a kustomization as if it had
	// one listing these resources (paths relative to it).
	Generate []string
	// Append are kustomization fields (patches, images, components), as
	// JSON values, added to those of the build's kustomization.
	Append map[string][]byte
	// Confine, when set, lets the build read any file below this
	// directory (Flux's source root) instead of only below its own.
	Confine string
}

// Build builds the kustomization in dir (named as the user gave it). The
// error is kustomize's, with absolute paths named as the user would.
func Build(dir string, budget *Budget, bo Options) (Result, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Result{}, err
	}
	fsys := newGuardedFS(abs, dir, budget)
	fsys.edit = bo
	opts := krusty.MakeDefaultOptions()
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	if bo.Confine != "" {
		if fsys.confine, err = filepath.Abs(bo.Confine); err != nil {
			return Result{}, err
		}
		opts.LoadRestrictions = types.LoadRestrictionsNone
	}
	opts.PluginConfig = types.DisabledPluginConfig()
	m, err := krusty.MakeKustomizer(opts).Run(fsys, abs)
	res := Result{Findings: fsys.findings, Errors: fsys.errs}
	if err != nil {
		return res, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), abs, filepath.Clean(dir)))
	}
	for _, r := range m.Resources() {
		o := Object{}
		origin, err := r.GetOrigin()
		if err == nil && origin != nil {
			switch {
			case origin.Path != "":
				o.File = filepath.Join(dir, origin.Path)
				o.Data = fsys.read[filepath.Join(abs, origin.Path)]
			case origin.ConfiguredIn != "":
				o.File, o.Generated = filepath.Join(dir, origin.ConfiguredIn), true
			}
		}
		if fsys.addedOrigin {
			if err := r.SetOrigin(nil); err != nil {
				return res, err
			}
			if len(r.GetAnnotations()) == 0 {
				if err := r.SetAnnotations(nil); err != nil {
					return res, err
				}
			}
		}
		m, err := r.Map()
		if err != nil {
			return res, err
		}
		if o.JSON, err = json.Marshal(m); err != nil {
			return res, err
		}
		res.Objects = append(res.Objects, o)
	}
	for p, data := range fsys.read {
		res.Files = append(res.Files, p)
		if !slices.Contains(konfig.RecognizedKustomizationFileNames(), filepath.Base(p)) {
			res.Read = append(res.Read, Source{File: fsys.userPath(p), Data: data})
		}
	}
	slices.Sort(res.Files)
	slices.SortFunc(res.Read, func(a, b Source) int { return strings.Compare(a.File, b.File) })
	res.Kustomizations = fsys.kustomizations
	if len(res.Kustomizations) > 1 {
		slices.Sort(res.Kustomizations[1:])
	}
	return res, nil
}
