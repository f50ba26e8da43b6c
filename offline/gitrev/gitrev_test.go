package gitrev

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/offline/gitrev/gitrevtest"
)

// repo makes a git repository with one commit holding files, then
// changes the work tree to after without committing.
func repo(t *testing.T, files, after map[string]string) string {
	t.Helper()
	dir := gitrevtest.Init(t)
	gitrevtest.Write(t, dir, files)
	gitrevtest.Commit(t, dir, "base")
	gitrevtest.Write(t, dir, after)
	return dir
}

func TestExportReadsTheRevisionNotTheWorkTree(t *testing.T) {
	dir := repo(t,
		map[string]string{"deploy/a.yaml": "a: old\n", "deploy/sub/b.yaml": "b: old\n", "other.yaml": "x\n"},
		map[string]string{"deploy/a.yaml": "a: new\n", "deploy/sub/b.yaml": "", "new/c.yaml": "c\n"})
	t.Chdir(filepath.Join(dir, "deploy"))
	out := t.TempDir()
	got, err := Export(context.Background(), "HEAD", []string{".", "../new"}, out)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(out, "deploy"), filepath.Join(out, "new")}; !slices.Equal(got.Paths, want) {
		t.Errorf("Paths = %v, want %v", got.Paths, want)
	}
	if !slices.Equal(got.Missing, []string{"../new"}) {
		t.Errorf("Missing = %v, want [../new]", got.Missing)
	}
	for name, want := range map[string]string{"deploy/a.yaml": "a: old\n", "deploy/sub/b.yaml": "b: old\n"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "other.yaml")); !os.IsNotExist(err) {
		t.Errorf("other.yaml was exported though no path names it (err %v)", err)
	}
	// The work tree is as the test left it.
	if b, _ := os.ReadFile(filepath.Join(dir, "deploy/a.yaml")); string(b) != "a: new\n" {
		t.Errorf("work tree changed: deploy/a.yaml = %q", b)
	}
}

func TestExportErrors(t *testing.T) {
	dir := repo(t, map[string]string{"a.yaml": "a\n"}, nil)
	t.Chdir(dir)
	tests := []struct {
		name  string
		rev   string
		paths []string
		want  string
	}{
		{"unknown revision", "no-such-rev", []string{"a.yaml"}, `"no-such-rev" is not a commit`},
		{"stdin", "HEAD", []string{"-"}, "standard input"},
		{"outside the repository", "HEAD", []string{t.TempDir()}, "outside the git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Export(context.Background(), tt.rev, tt.paths, t.TempDir())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestExportIgnoresExportAttributes checks that a file marked
// export-ignore is read: it is in the revision's tree, and the repository
// applies it.
func TestExportIgnoresExportAttributes(t *testing.T) {
	dir := repo(t, map[string]string{
		".gitattributes":     "deploy/hidden.yaml export-ignore\ndeploy/sub export-ignore\n",
		"deploy/hidden.yaml": "h: old\n", "deploy/sub/s.yaml": "s: old\n",
	}, nil)
	t.Chdir(dir)
	out := t.TempDir()
	if _, err := Export(context.Background(), "HEAD", []string{"deploy"}, out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"deploy/hidden.yaml": "h: old\n", "deploy/sub/s.yaml": "s: old\n"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

// TestExportFollowsLinksInTheTree checks that committed symbolic links
// read the revision's target: a file link, a directory link, a link to a
// file outside the exported path, a chain of links, and a loop, which ends.
func TestExportFollowsLinksInTheTree(t *testing.T) {
	dir := gitrevtest.Init(t)
	gitrevtest.Write(t, dir, map[string]string{"shared/route.yaml": "r: old\n", "shared/more/m.yaml": "m: old\n"})
	for link, target := range map[string]string{
		"deploy/route.yaml": "../shared/route.yaml",
		"deploy/more":       "../shared/more",
		"deploy/chain.yaml": "route.yaml",
		"deploy/loop-a":     "loop-b",
		"deploy/loop-b":     "loop-a",
	} {
		if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	gitrevtest.Commit(t, dir, "base")
	gitrevtest.Write(t, dir, map[string]string{"shared/route.yaml": "r: new\n", "shared/more/m.yaml": "m: new\n"})
	t.Chdir(dir)
	out := t.TempDir()
	if _, err := Export(context.Background(), "HEAD", []string{"deploy"}, out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"deploy/route.yaml": "r: old\n", "deploy/chain.yaml": "r: old\n", "deploy/more/m.yaml": "m: old\n"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}
