package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gwsim/gwsim/translate/diag"
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
// Symbolic links to directories are not followed, so a link loop cannot
// hang the walk. "-" stays "-" for stdin.
func expand(paths []string, recursive bool) ([]string, []diag.Finding) {
	var files []string
	var errs []diag.Finding
	for _, p := range paths {
		if p == "-" {
			files = append(files, p)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		files, errs = walk(p, recursive, files, errs)
	}
	return files, errs
}

func walk(dir string, recursive bool, files []string, errs []diag.Finding) ([]string, []diag.Finding) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return files, append(errs, pathError(dir, err))
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if recursive {
				files, errs = walk(p, recursive, files, errs)
			}
		case manifestFile(e.Name()):
			files = append(files, p)
		}
	}
	return files, errs
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
