// Package gitrev reads manifests as they were at a git revision, for
// `gwsim diff --base REV`: it writes the named paths of REV into a
// directory from the revision's own tree (`git ls-tree` and `git cat-file`),
// so that the loader reads them like any other files. Unlike `git
// archive`, this ignores export attributes (a file marked export-ignore is
// still a manifest the repository applies) and keeps symbolic links: a
// link whose target lies in the tree becomes a link to that target's copy,
// so that the loader follows it exactly as it follows the checked-out one.
// The work tree, the index and HEAD are never touched.
package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Exported is what Export wrote.
type Exported struct {
	// Paths are where the caller's paths are under the export directory,
	// in the caller's order: load these instead of the originals.
	Paths []string
	// Missing are the caller's paths that REV does not have (a directory
	// the change adds): they stand for nothing on the old side.
	Missing []string
	// Root is the export directory; a file under it came from
	// "<rev>:<path relative to the repository's top>".
	Root string
	// Top is the repository's top level in the work tree: Root/x is
	// Top/x as it is at the revision.
	Top string
}

// Export writes the files of paths (files or directories, relative to the
// working directory or absolute, inside one git repository) as they are at
// rev into dir, and says where each path landed. "-" (stdin) has no
// revision and is refused.
func Export(ctx context.Context, rev string, paths []string, dir string) (Exported, error) {
	if len(paths) == 0 {
		return Exported{}, errors.New("no paths to read from git")
	}
	top, err := git(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return Exported{}, err
	}
	topDir := strings.TrimSpace(string(top))
	if _, err := git(ctx, topDir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return Exported{}, fmt.Errorf("%q is not a commit in %s", rev, topDir)
	}
	out := Exported{Root: dir, Top: topDir}
	t := &tree{ctx: ctx, top: topDir, rev: rev, dir: dir, done: map[string]bool{}, written: map[string]bool{}}
	for _, p := range paths {
		rel, err := repoPath(topDir, p)
		if err != nil {
			return Exported{}, err
		}
		out.Paths = append(out.Paths, filepath.Join(dir, filepath.FromSlash(rel)))
		found, err := t.export(rel)
		if err != nil {
			return Exported{}, err
		}
		if !found {
			out.Missing = append(out.Missing, p)
			// An empty directory stands for the path, so that the loader
			// reads nothing from it rather than failing.
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755); err != nil {
				return Exported{}, err
			}
		}
	}
	return out, t.writeBlobs()
}

// repoPath turns p into a slash path relative to the repository's top.
func repoPath(top, p string) (string, error) {
	if p == "-" {
		return "", errors.New("standard input (-f -) has no git revision; name files or directories")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	// Compare resolved paths: the top git prints has symlinks resolved.
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	} else if resolvedDir, derr := filepath.EvalSymlinks(filepath.Dir(abs)); derr == nil {
		abs = filepath.Join(resolvedDir, filepath.Base(abs))
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git repository %s", p, top)
	}
	return filepath.ToSlash(rel), nil
}

// git runs git in dir ("" for the working directory) and returns stdout;
// a failure carries git's own message.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	if dir != "" {
		cmd.Dir = dir
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}
