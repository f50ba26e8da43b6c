package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/gwsim/gwsim/diag"
)

// stdinName is the file name sources give to documents read from stdin.
const stdinName = "<stdin>"

// ConfigFileName is gwsim's own config file (see cmd), which may sit among
// the manifests: a directory read skips it, as it skips route table test
// files.
const ConfigFileName = ".gwsim.yaml"

// manifestFile reports whether a directory entry is read: kubectl's
// extensions. A file named on the command line is read whatever its name.
func manifestFile(name string) bool {
	if name == ConfigFileName {
		return false
	}
	switch filepath.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// expand turns the paths given into the files to read, in order: each path
// as given, a directory's manifest files sorted by name, its subdirectories
// (sorted among the files, as filepath.WalkDir does) only when recursive.
// Entries below a directory that an exclude glob matches are skipped (see
// excluded). Symbolic links to directories are not followed, so a link loop
// cannot hang the walk. "-" stays "-" for stdin. A directory read without
// recursion that holds no manifest file is an error: it almost always means
// -R was forgotten.
//
// A path named directly is read whatever it is (a FIFO from a shell's
// process substitution, /dev/stdin), within the byte limits; a directory's
// entries are marked listed, so that only regular files among them are
// read (see reader.open).
func expand(paths []string, opts walkOptions) ([]input, []diag.Finding) {
	var files []input
	var errs []diag.Finding
	for _, p := range paths {
		if p == "-" {
			files = append(files, input{path: p})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		if !info.IsDir() {
			files = append(files, input{path: p})
			continue
		}
		w := walker{root: p, walkOptions: opts}
		before := len(files)
		files, errs = w.walk(p, files, errs)
		if len(files) == before && !opts.recursive && w.subdirs > 0 {
			errs = append(errs, pathError(p, fmt.Errorf("no .yaml, .yml or .json file at its top level, and %d subdirector%s; pass -R to read them",
				w.subdirs, plural(w.subdirs, "y", "ies"))))
		}
	}
	return files, errs
}

// walkOptions say how a directory is read.
type walkOptions struct {
	recursive bool
	exclude   []string
	// kustomize builds a directory that holds a kustomization instead of
	// listing its files (its subdirectories are still walked with
	// recursive).
	kustomize bool
}

// walker lists the manifest files below one -f directory.
type walker struct {
	root string
	walkOptions
	// subdirs counts the subdirectories seen at the top level.
	subdirs int
}

func (w *walker) walk(dir string, files []input, errs []diag.Finding) ([]input, []diag.Finding) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return files, append(errs, pathError(dir, err))
	}
	build := w.kustomize && isBuildRoot(dir)
	buildAt := len(files)
	if build {
		files = append(files, input{path: dir, kustomize: true, found: true, root: w.root})
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if w.excluded(p) {
			continue
		}
		switch {
		case e.IsDir():
			if dir == w.root {
				w.subdirs++
			}
			if w.recursive {
				files, errs = w.walk(p, files, errs)
			}
		case manifestFile(e.Name()) && build:
			files[buildAt].siblings = append(files[buildAt].siblings, p)
		case manifestFile(e.Name()):
			files = append(files, input{path: p, listed: true, root: w.root})
		}
	}
	return files, errs
}

// excluded reports whether an exclude glob (path.Match syntax) matches the
// entry's name or its slash-separated path below the -f directory: a Helm
// chart's values.yaml is skipped with --exclude values.yaml, its templates
// with --exclude templates, one environment with --exclude 'envs/prod/*'.
func (w *walker) excluded(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	if err != nil {
		rel = p
	}
	rel = filepath.ToSlash(rel)
	for _, g := range w.exclude {
		if ok, _ := path.Match(g, filepath.Base(p)); ok {
			return true
		}
		if ok, _ := path.Match(g, rel); ok {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pathError reports a path that cannot be read. Its source names the path
// with no line, since there is no document to point at.
func pathError(path string, err error) diag.Finding {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is in the message already
	}
	return diag.Finding{
		Severity: diag.Error, Source: diag.Source{File: path}, Reason: diag.ReasonParseError,
		Message: fmt.Sprintf("cannot read %s: %v", path, err),
	}
}
