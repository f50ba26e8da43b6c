package cmd

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// repoLocator maps the files findings name onto paths relative to the
// repository root, the form CI consumers need: GitHub code scanning and
// annotations resolve a path against the repository, not against the
// directory gwsim ran in, so `-f $PWD/deploy` (absolute paths) or a step
// with `working-directory: deploy` (paths relative to deploy/) would
// otherwise point at no file.
type repoLocator struct {
	// root is the repository root, absolute with symbolic links resolved;
	// "" takes relative paths as they are (renderer tests).
	root  string
	cache map[string]repoPath
}

// repoPath is one file as the repository sees it; ok is false for a file
// outside the repository (or standard input), which no CI consumer can
// show a line of.
type repoPath struct {
	path string
	ok   bool
}

// findRepoRoot returns the repository the inputs belong to: the first
// directory upward from the first -f that holds .git (a directory, or the
// file a worktree or submodule has), which is what `git rev-parse
// --show-toplevel` answers without running git; else the working
// directory. override, when set, is used instead (tests pin it so that
// golden files do not depend on where the checkout sits).
func findRepoRoot(files []string, override string) string {
	if override != "" {
		return resolveDir(override)
	}
	start := "."
	for _, f := range files {
		if f != "-" {
			start = f
			break
		}
	}
	dir := resolveDir(start)
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return resolveDir(".")
}

// resolveDir makes p absolute and resolves its symbolic links, so that a
// root and a file reached through different links compare; a path that
// cannot be resolved is kept absolute as it is.
func resolveDir(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// locate returns file's path relative to the repository root, with
// forward slashes, or ok false when the file is not in the repository.
func (l *repoLocator) locate(file string) (string, bool) {
	if file == "" || file == "-" || strings.HasPrefix(file, "<") {
		return "", false
	}
	if p, ok := l.cache[file]; ok {
		return p.path, p.ok
	}
	p := l.resolve(file)
	if l.cache == nil {
		l.cache = map[string]repoPath{}
	}
	l.cache[file] = p
	return p.path, p.ok
}

func (l *repoLocator) resolve(file string) repoPath {
	if l.root == "" {
		if filepath.IsAbs(file) {
			return repoPath{}
		}
		return inRepo(filepath.ToSlash(filepath.Clean(file)))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return repoPath{}
	}
	// The directory's links are resolved, not the file's own: a manifest
	// that is a link is shown where the repository holds the link.
	dir, base := filepath.Split(abs)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		abs = filepath.Join(r, base)
	}
	rel, err := filepath.Rel(l.root, abs)
	if err != nil {
		return repoPath{}
	}
	return inRepo(filepath.ToSlash(rel))
}

// inRepo accepts a cleaned relative slash path that stays inside the root.
func inRepo(rel string) repoPath {
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return repoPath{}
	}
	return repoPath{path: rel, ok: true}
}
