package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/cmd"
)

// TestDocsRuns re-runs every gwsim command pasted in README.md and docs/
// whose input is in the repository (examples/, golden/, or run after "cd
// golden/CASE &&") and compares what
// it prints with what the page shows, so that a change to gwsim's output
// cannot leave a page showing output gwsim no longer prints. With -update
// it rewrites the pasted output instead. A line "..." in a page stands for
// any number of lines; "$ echo $?" after a command checks its exit code.
// Commands whose input is not in the repository (a page's own example
// files) are not run.
func TestDocsRuns(t *testing.T) {
	t.Chdir("..")
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"README.md"}, pages...)
	ran, codes := 0, 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		runs := pastedRuns(lines)
		changed := false
		// Rewrite from the last run up, so that earlier line numbers hold.
		for i := len(runs) - 1; i >= 0; i-- {
			r := runs[i]
			got, code := r.run()
			ran++
			where := fmt.Sprintf("%s:%d", page, r.line+1)
			if r.wantCode != nil {
				codes++
			}
			if r.wantCode != nil && *r.wantCode != code {
				t.Errorf("%s: %s exits %d, the page says %d", where, r.command, code, *r.wantCode)
			}
			if matchPasted(r.output, got) {
				continue
			}
			if *update {
				lines = append(lines[:r.first], append(got, lines[r.end:]...)...)
				changed = true
				continue
			}
			t.Errorf("%s: %s prints (run go test ./golden -run TestDocsRuns -update to paste it):\n%s\nthe page shows:\n%s",
				where, r.command, strings.Join(got, "\n"), strings.Join(r.output, "\n"))
		}
		if changed {
			if err := os.WriteFile(page, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("ran %d pasted commands, %d with their exit code", ran, codes)
	if ran < 40 {
		t.Errorf("ran %d pasted commands; the pages held 51 on 2026-12-05: is the parser broken?", ran)
	}
}

// pastedRun is one "$ gwsim ..." line of a fenced block and the output
// shown under it: lines [first, end) of the page.
type pastedRun struct {
	line       int
	command    string
	first, end int
	output     []string
	wantCode   *int
	args       []string
	stdout     bool   // the command's stdout is shown
	stderr     bool   // its stderr is shown
	dir        string // where the command runs, from the repository's root
}

func pastedRuns(lines []string) []pastedRun {
	var runs []pastedRun
	inBlock := false
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		r, ok := parseCommand(lines[i])
		if !ok {
			continue
		}
		r.line, r.first = i, i+1
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "```") && !strings.HasPrefix(lines[j], "$ ") {
			j++
		}
		r.end = j
		r.output = lines[r.first:r.end]
		if j+1 < len(lines) && lines[j] == "$ echo $?" {
			if n, err := strconv.Atoi(strings.TrimSpace(lines[j+1])); err == nil {
				r.wantCode = &n
			}
		}
		runs = append(runs, r)
		i = j - 1
	}
	return runs
}

// parseCommand reads "$ [cd golden/CASE && ]gwsim ARGS [2>/dev/null |
// >/dev/null]": ok only when every path the command reads is in the
// repository.
func parseCommand(line string) (pastedRun, bool) {
	r := pastedRun{command: strings.TrimPrefix(line, "$ "), stdout: true, stderr: true}
	rest, ok := strings.CutPrefix(line, "$ ")
	if !ok {
		return r, false
	}
	if dir, after, ok := strings.Cut(strings.TrimPrefix(rest, "cd "), " && "); ok && strings.HasPrefix(rest, "cd golden/") {
		if _, err := os.Stat(dir); err != nil {
			return r, false
		}
		r.dir, rest = dir, after
	}
	rest, ok = strings.CutPrefix(rest, "gwsim ")
	if !ok {
		return r, false
	}
	words, ok := shellWords(rest)
	if !ok {
		return r, false
	}
	inRepo := false
	for _, w := range words {
		switch w {
		case "2>/dev/null":
			r.stderr = false
			continue
		case ">/dev/null", "> /dev/null":
			r.stdout = false
			continue
		}
		if strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>") {
			return r, false // another redirection: not run
		}
		if strings.Contains(w, "/") && !strings.Contains(w, "://") && !strings.HasPrefix(w, "-") {
			if _, err := os.Stat(filepath.Join(r.dir, w)); err != nil {
				return r, false // a path of the page's own, not in the repository
			}
			inRepo = inRepo || r.dir != "" || strings.HasPrefix(w, "examples/") || strings.HasPrefix(w, "golden/")
		}
		r.args = append(r.args, w)
	}
	return r, inRepo
}

// shellWords splits a command line as a POSIX shell would for the quoting
// the pages use: single and double quotes, and "> /dev/null" kept as one
// redirection.
func shellWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("$`\\;&|<", c) >= 0:
			return nil, false
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] == ">" && words[i+1] == "/dev/null" {
			words = append(words[:i], append([]string{">/dev/null"}, words[i+2:]...)...)
		}
	}
	return words, true
}

// run runs the command in-process with stdout and stderr written, as a
// terminal shows them, into one buffer (or one of them discarded).
func (r pastedRun) run() ([]string, int) {
	var shown, discard bytes.Buffer
	out, errw := &shown, &shown
	if !r.stdout {
		out = &discard
	}
	if !r.stderr {
		errw = &discard
	}
	if r.dir != "" {
		if err := os.Chdir(r.dir); err != nil {
			panic(err)
		}
		defer func() {
			if err := os.Chdir(strings.Repeat("../", strings.Count(filepath.Clean(r.dir), "/")+1)); err != nil {
				panic(err)
			}
		}()
	}
	code := cmd.Execute(r.args, cmd.Streams{In: &bytes.Buffer{}, Out: out, Err: errw})
	text := strings.TrimSuffix(shown.String(), "\n")
	if text == "" {
		return nil, code
	}
	return strings.Split(text, "\n"), code
}

// matchPasted reports whether got is what a page shows: line for line,
// where a "..." line (indented or not) stands for any number of lines.
func matchPasted(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for k := 0; k <= len(got); k++ {
			if matchPasted(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchPasted(want[1:], got[1:])
}
