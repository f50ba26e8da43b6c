// Package gitrevtest makes throwaway git repositories for the tests of
// `gwsim diff --base`: git runs with no user or system configuration, so
// that a developer's settings (signing, hooks, default branch) do not
// change what the tests see.
package gitrevtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Init makes an empty repository in a new temporary directory and returns
// its path; it skips the test when git is not installed.
func Init(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	Git(t, dir, "init", "-q")
	return dir
}

// Git runs git in dir and fails the test if it fails.
func Git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=gwsim", "-c", "user.email=gwsim@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Write writes files (path relative to dir: content) into the work tree;
// an empty content deletes the file.
func Write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
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

// Commit stages everything and commits it.
func Commit(t *testing.T, dir, message string) {
	t.Helper()
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", message)
}
