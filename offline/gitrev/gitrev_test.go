package gitrev

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repo makes a git repository in a temp dir with one commit holding files,
// then changes the work tree to after (nil content deletes), without
// committing; it returns the repository's path.
func repo(t *testing.T, files, after map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=gwsim", "-c", "user.email=gwsim@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(m map[string]string) {
		for name, content := range m {
			p := filepath.Join(dir, name)
			if content == "" {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	run("init", "-q")
	write(files)
	run("add", ".")
	run("commit", "-q", "-m", "base")
	write(after)
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
