package kustomize

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/gwsim/gwsim/diag"
)

// Budget bounds the bytes a build reads, as the loader bounds what it
// reads itself. One Budget is shared by the builds of one load.
type Budget struct {
	// FileBytes bounds one file.
	FileBytes int64
	// TotalBytes bounds every file of every build together, counted each
	// time a build reads it: a base that a kustomization includes many
	// times over (under different name prefixes) multiplies what the
	// build makes, so each inclusion costs its bytes again.
	TotalBytes int64
	used       int64
	// Screen, when set, sees each file before kustomize does (once per
	// build), so that the loader's rules for one document hold inside a
	// build too: what it keeps is what kustomize reads.
	Screen func(file string, data []byte, kustomization bool) Screened
}

// Screened is what Budget.Screen makes of a file: the bytes kustomize
// reads (the file without the documents left out), findings about the
// documents left out, and input errors (a limit the file exceeds).
type Screened struct {
	Data             []byte
	Findings, Errors []diag.Finding
}

// Used is what the builds have read so far.
func (b *Budget) Used() int64 { return b.used }

// charge counts n more bytes read, or says which limit they exceed.
func (b *Budget) charge(n int64, file string) error {
	if n > b.TotalBytes-b.used {
		return fmt.Errorf("%s: %w (the builds read more than %d bytes in total, counting a file again each time a kustomization includes it)", file, ErrLimit, b.TotalBytes)
	}
	b.used += n
	return nil
}

// ErrLimit is wrapped by the error of a read over the budget.
var ErrLimit = errors.New("over the byte limit")

// errReadOnly answers any attempt of kustomize to write: a build only
// reads.
var errReadOnly = errors.New("gwsim builds without writing to the file system")

// guardedFS is the disk as kustomize sees it during one build: reads are
// bounded, only regular files are read (a FIFO named x.yaml would block),
// every file read is remembered, and kustomization files are rewritten
// (see rewrite). Nothing is written.
type guardedFS struct {
	filesys.FileSystem
	budget *Budget
	// rootDir is the absolute directory the build starts at; userDir is
	// the same directory as the user named it, for findings.
	rootDir, userDir string
	// read maps each absolute path read to its bytes as on disk; screened
	// to what kustomize reads of it (see Budget.Screen).
	read, screened map[string][]byte
	// kustomizations are the absolute directories whose kustomization file
	// was read.
	kustomizations []string
	findings, errs []diag.Finding
	addedOrigin    bool
	// edit is what the build changes in its own kustomization; confine,
	// when set, is the directory no read may leave.
	edit    Options
	confine string
}

func newGuardedFS(rootDir, userDir string, budget *Budget) *guardedFS {
	return &guardedFS{FileSystem: filesys.MakeFsOnDisk(), budget: budget, rootDir: rootDir, userDir: userDir, read: map[string][]byte{}, screened: map[string][]byte{}}
}

// ReadFile reads a file within the budget and rewrites kustomization files.
func (g *guardedFS) ReadFile(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if g.confine != "" {
		if rel, err := filepath.Rel(g.confine, abs); err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s: outside the source root %s", g.userPath(abs), g.confine)
		}
	}
	isKustomization := slices.Contains(konfig.RecognizedKustomizationFileNames(), filepath.Base(abs))
	data, ok := g.screened[abs]
	switch {
	case ok:
		if err := g.budget.charge(int64(len(data)), g.userPath(abs)); err != nil {
			return nil, err
		}
	case g.edit.Generate != nil && filepath.Dir(abs) == g.rootDir && filepath.Base(abs) == "kustomization.yaml":
		data = generated(g.edit.Generate)
		g.screened[abs] = data
	default:
		if data, err = g.readBounded(abs); err != nil {
			return nil, err
		}
		g.read[abs] = data
		data = g.screen(abs, data, isKustomization)
		g.screened[abs] = data
	}
	if !isKustomization {
		return data, nil
	}
	dir := filepath.Dir(abs)
	if !slices.Contains(g.kustomizations, dir) {
		g.kustomizations = append(g.kustomizations, dir)
	}
	var edit *Options
	if dir == g.rootDir {
		edit = &g.edit
	}
	r := rewrite(data, g.userPath(abs), dir, edit)
	for _, f := range r.findings {
		if !slices.Contains(g.findings, f) {
			g.findings = append(g.findings, f)
		}
	}
	g.addedOrigin = g.addedOrigin || r.addedOrigin
	return r.data, nil
}

// readBounded reads a regular file no larger than what is left of the
// budget. The file is opened without blocking and checked after opening,
// so that a FIFO swapped in cannot hang the build.
func (g *guardedFS) readBounded(abs string) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", g.userPath(abs))
	}
	limit := min(g.budget.FileBytes, g.budget.TotalBytes-g.budget.used)
	if info.Size() > limit {
		return nil, fmt.Errorf("%s: %w (%d bytes; %d left to read)", g.userPath(abs), ErrLimit, info.Size(), max(limit, 0))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", g.userPath(abs), ErrLimit)
	}
	if err := g.budget.charge(int64(len(data)), g.userPath(abs)); err != nil {
		return nil, err
	}
	return data, nil
}

// screen passes a file read for the first time through Budget.Screen.
func (g *guardedFS) screen(abs string, data []byte, kustomization bool) []byte {
	if g.budget.Screen == nil {
		return data
	}
	s := g.budget.Screen(g.userPath(abs), data, kustomization)
	g.findings = append(g.findings, s.Findings...)
	g.errs = append(g.errs, s.Errors...)
	return s.Data
}

// userPath names an absolute path as the user would: relative to the
// directory given, joined to that directory as given.
func (g *guardedFS) userPath(abs string) string {
	rel, err := filepath.Rel(g.rootDir, abs)
	if err != nil {
		return abs
	}
	return filepath.Join(g.userDir, rel)
}

// Open is not used by kustomize's loaders; reading through it would skip
// the budget, so it is refused.
// generated is the kustomization Flux writes for a folder without one.
func generated(resources []string) []byte {
	b, _ := json.Marshal(map[string]any{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": resources})
	return b
}

func (g *guardedFS) Open(path string) (filesys.File, error) {
	return nil, fmt.Errorf("open %s: gwsim reads kustomize inputs only whole, within its byte limits", path)
}

func (g *guardedFS) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (g *guardedFS) Mkdir(string) error                  { return errReadOnly }
func (g *guardedFS) MkdirAll(string) error               { return errReadOnly }
func (g *guardedFS) RemoveAll(string) error              { return errReadOnly }
func (g *guardedFS) WriteFile(string, []byte) error      { return errReadOnly }
