package golden

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/gwsim/gwsim/offline/gitrev/gitrevtest"
)

// gitattributesFile is the name a base folder gives its .gitattributes:
// a file of that real name would apply to gwsim's own repository.
const gitattributesFile = "gitattributes"

// baseRepo makes a git repository whose one commit is the case's base
// folder (symlinks kept, gitattributes committed as .gitattributes), then
// puts the case's input/ in place of the committed input/ in the work
// tree, so that `diff --base HEAD -f input/` compares the two. It returns
// the repository's path; the test is skipped when git is not installed.
func baseRepo(t *testing.T, c goldenCase, base string) string {
	t.Helper()
	repo := gitrevtest.Init(t)
	copyTree(t, filepath.Join(c.Dir, base), repo)
	if _, err := os.Lstat(filepath.Join(repo, gitattributesFile)); err == nil {
		if err := os.Rename(filepath.Join(repo, gitattributesFile), filepath.Join(repo, ".gitattributes")); err != nil {
			t.Fatal(err)
		}
	}
	gitrevtest.Commit(t, repo, "base")
	if err := os.RemoveAll(filepath.Join(repo, inputDir)); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join(c.Dir, inputDir), filepath.Join(repo, inputDir))
	return repo
}

// copyTree copies the files, folders and symlinks under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// inRepo runs f with the repository as the working directory and returns
// to the case folder after: the case's other commands run there.
func inRepo(t *testing.T, repo string, f func() string) string {
	t.Helper()
	back, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(repo); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(back); err != nil {
			t.Fatal(err)
		}
	}()
	return f()
}
