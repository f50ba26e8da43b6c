package cmd

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/gwsim/gwsim/offline/gitrev"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// maxBaseRounds bounds how many times exportBase follows kustomizations
// to the bases they name: a chain of overlays deeper than this is not
// written by hand.
const maxBaseRounds = 32

// baseSide is where the old side of diff --base reads its input.
type baseSide struct {
	files, kustomize []string
}

// exportBase writes what the old side of diff --base reads into dir: the
// -f and -k paths as they are at rev, then, round after round, what the
// kustomizations among them name outside them (resources, bases,
// components: an overlay's base in ../base), since the build of an
// overlay reads its base from wherever it lies in the repository, and a
// missing one would fail the old side's build alone. A -k directory that
// rev does not have stands for nothing. Flux Kustomizations' spec.path
// is not followed here: name a directory that holds it (the repository's
// top with -R) to compare a Flux tree.
func exportBase(ctx context.Context, rev string, files, kdirs []string, dir string, fileLimit int64) (baseSide, error) {
	exp, err := gitrev.Export(ctx, rev, append(slices.Clone(files), kdirs...), dir)
	if err != nil {
		return baseSide{}, err
	}
	side := baseSide{files: exp.Paths[:len(files)]}
	for i, k := range kdirs {
		if !slices.Contains(exp.Missing, k) {
			side.kustomize = append(side.kustomize, exp.Paths[len(files)+i])
		}
	}
	for range maxBaseRounds {
		missing := missingReferences(dir, exp.Top, fileLimit)
		if len(missing) == 0 {
			break
		}
		more, err := gitrev.Export(ctx, rev, missing, dir)
		if err != nil {
			return baseSide{}, err
		}
		if len(more.Missing) == len(missing) {
			break // nothing of them is at rev: the build says so
		}
	}
	return side, nil
}

// missingReferences lists, as work-tree paths (under the repository's top
// level), what the kustomizations written under dir name and dir does not
// hold yet. A reference that leaves the repository is left to the build
// to report.
func missingReferences(dir, top string, fileLimit int64) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if f, ok := kustomize.File(filepath.Dir(p)); !ok || f != p {
			return nil
		}
		data, err := load.ReadFile(p, fileLimit)
		if err != nil {
			return nil
		}
		for _, ref := range kustomize.LocalReferences(data) {
			target := filepath.Join(filepath.Dir(p), ref)
			rel, err := filepath.Rel(dir, target)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			if _, err := os.Lstat(target); err == nil {
				continue
			}
			out = append(out, filepath.Join(top, rel))
		}
		return nil
	})
	slices.Sort(out)
	return slices.Compact(out)
}
