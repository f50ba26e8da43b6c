package golden

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/cmd"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline"
)

// command is one gwsim command a case records the output of.
type command struct {
	// File is the golden file, relative to the case folder.
	File string
	// Args select the command and its output format.
	Args []string
	// Check marks `gwsim check`, whose exit code is part of its contract and
	// is always recorded; other commands record it only when it is not 0.
	// Explain's and test's text outputs record it the same way.
	Check bool
	// NoExit leaves the exit code out, so that the file stays valid JSON;
	// a sibling file of the same run records it.
	NoExit bool
	// Comment starts the lines that record stderr and the exit code; empty
	// means "# ", a comment in YAML and DOT.
	Comment string
	// Base, when set, is the case folder holding the old revision's tree:
	// the command runs in a git repository made from it (see baseRepo).
	Base string
}

// commands lists what every case records, in the order the files are written.
func commands() []command {
	return []command{
		{File: "routes.txt", Args: []string{"routes"}},
		{File: "ir.yaml", Args: []string{"ir", "-o", "yaml"}},
		{File: "status.yaml", Args: []string{"status", "-o", "yaml"}},
		{File: "check.txt", Args: []string{"check"}, Check: true},
	}
}

// commands lists what case c records: every case's outputs, then two
// files per explain request, one per extra check run, three per test
// run (text, JSON, JUnit) of its case.yaml, and the three outputs of
// gwsim diff when the case is a change.
func (c goldenCase) commands() []command {
	out := commands()
	for _, e := range c.Spec.Explain {
		args := append([]string{"explain"}, e.Args...)
		out = append(out,
			command{File: "explain-" + e.Name + ".txt", Args: args, Check: true},
			command{File: "explain-" + e.Name + ".json", Args: append(slices.Clone(args), "-o", "json"), NoExit: true},
		)
	}
	for _, ch := range c.Spec.Check {
		out = append(out, command{File: "check-" + ch.Name + ".txt", Args: append([]string{"check"}, ch.Args...), Check: true})
	}
	for _, tr := range c.Spec.Test {
		args := append([]string{"test", "--cases", tr.Cases}, tr.Args...)
		out = append(out,
			command{File: "test-" + tr.Name + ".txt", Args: args, Check: true},
			command{File: "test-" + tr.Name + ".json", Args: append(slices.Clone(args), "-o", "json"), NoExit: true},
			command{File: "test-" + tr.Name + ".junit.xml", Args: append(slices.Clone(args), "-o", "junit"), NoExit: true},
		)
	}
	if d := c.Spec.Diff; d != nil {
		args := []string{"diff", d.Old + "/"}
		if d.Base != "" {
			args = []string{"diff", "--base", "HEAD"}
		}
		out = append(out,
			command{File: "diff.txt", Args: args, Check: true, Base: d.Base},
			command{File: "diff.json", Args: append(slices.Clone(args), "-o", "json"), NoExit: true, Base: d.Base},
			command{File: "diff.md", Args: append(slices.Clone(args), "-o", "markdown"), NoExit: true, Base: d.Base},
		)
	}
	return append(out, c.viewCommands()...)
}

// byFile reports whether the output is organised by input file (JUnit's
// testsuites), so that splitting the input across other files changes
// its shape, not only its source positions.
func (c command) byFile() bool {
	for i, a := range c.Args {
		if a == "-o" && i+1 < len(c.Args) && c.Args[i+1] == "junit" {
			return true
		}
	}
	return false
}

// runner is one way to run the CLI: the default store or a chosen one.
type runner func(args []string, streams cmd.Streams) int

// defaultRunner runs the CLI, in the fast-path mode GWSIM_FASTPATH says
// (make test runs every case with it off too), with the case folder (the working directory)
// as the repository root, as if each case were a repository of its own:
// SARIF, GitHub and GitLab paths then read input/<file> wherever the
// checkout sits, and with or without a .git above it.
func defaultRunner(args []string, streams cmd.Streams) int {
	return cmd.ExecuteWith(args, streams, cmd.Env{SourceRoot: ".", Fastpath: os.Getenv(fastpath.EnvVar)})
}

func storeRunner(store offline.StoreFactory) runner {
	return func(args []string, streams cmd.Streams) int {
		return cmd.ExecuteWith(args, streams, cmd.Env{Store: store, SourceRoot: ".", Fastpath: os.Getenv(fastpath.EnvVar)})
	}
}

// result is what one CLI run printed and returned.
type result struct {
	Stdout, Stderr string
	Code           int
}

// transcript renders a result as a golden file. check.txt is stdout, then
// stderr, then `exit: N`. The other files are stdout alone when the run was
// clean; otherwise stderr and the exit code follow as comments (`# `, or
// the command's Comment), which keeps ir.yaml and status.yaml valid YAML
// and graph.mmd valid Mermaid.
func (r result) transcript(c command) string {
	var b strings.Builder
	b.WriteString(r.Stdout)
	if c.Check {
		b.WriteString(r.Stderr)
		fmt.Fprintf(&b, "exit: %d\n", r.Code)
		return b.String()
	}
	if (r.Stderr == "" && r.Code == 0) || (c.NoExit && r.Stderr == "") {
		return b.String()
	}
	comment := cmp.Or(c.Comment, "# ")
	for _, line := range strings.SplitAfter(r.Stderr, "\n") {
		if line != "" {
			b.WriteString(comment + line)
		}
	}
	if r.Stderr != "" && !strings.HasSuffix(r.Stderr, "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%sexit: %d\n", comment, r.Code)
	return b.String()
}

// run runs one command of case c in the current directory, reading inputs
// from the given -f argument (or from stdin when the case says so).
func run(t *testing.T, c goldenCase, cmdArgs []string, from string, useStdin bool, rn runner) result {
	t.Helper()
	args := append([]string{}, cmdArgs...)
	in := []byte{}
	if useStdin {
		b, err := os.ReadFile(filepath.Join(c.Dir, c.Spec.Stdin))
		if err != nil {
			t.Fatal(err)
		}
		in = b
		args = append(args, "-f", "-")
	} else {
		args = append(args, "-f", from)
	}
	args = append(args, c.Spec.Args...)
	var stdout, stderr bytes.Buffer
	code := rn(args, cmd.Streams{In: bytes.NewReader(in), Out: &stdout, Err: &stderr})
	return result{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// runCase runs one command on a case's own inputs, in the case folder, or
// in a git repository made from the case when the command reads a base
// revision.
func runCase(t *testing.T, c goldenCase, cm command, rn runner) string {
	t.Helper()
	if cm.Base != "" {
		return inRepo(t, baseRepo(t, c, cm.Base), func() string {
			return run(t, c, cm.Args, inputDir+"/", false, rn).transcript(cm)
		})
	}
	return run(t, c, cm.Args, inputDir+"/", c.Spec.Stdin != "", rn).transcript(cm)
}
