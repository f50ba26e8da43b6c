package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/cmd"
)

// TestExamplesFromStdin checks the README's promise: `cat examples/*.yaml |
// gwsim -f -` prints what `gwsim -f examples/` prints, and the golden
// `example` case holds the same files as examples/.
func TestExamplesFromStdin(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var concatenated bytes.Buffer
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		concatenated.Write(b)
		golden, err := os.ReadFile(filepath.Join("example", inputDir, filepath.Base(f)))
		if err != nil || !bytes.Equal(b, golden) {
			t.Errorf("golden/example/%s/%s differs from %s: copy examples/ into the case", inputDir, filepath.Base(f), f)
		}
	}
	var fromDir, fromStdin bytes.Buffer
	dirCode := cmd.Execute([]string{"-f", "../examples/"}, cmd.Streams{In: &bytes.Buffer{}, Out: &fromDir, Err: &bytes.Buffer{}})
	stdinCode := cmd.Execute([]string{"-f", "-"}, cmd.Streams{In: &concatenated, Out: &fromStdin, Err: &bytes.Buffer{}})
	if dirCode != stdinCode || fromDir.String() != fromStdin.String() {
		t.Errorf("stdin run differs from directory run (exit %d vs %d):\n--- dir\n%s\n--- stdin\n%s", dirCode, stdinCode, fromDir.String(), fromStdin.String())
	}
	if dirCode != 1 {
		t.Errorf("examples exit %d, want 1 (the example holds one broken route on purpose)", dirCode)
	}
}

// TestExampleRouteTests runs, from the repository root, the command the
// README and docs/test.md give for the examples' route table tests: every
// test passes and coverage is printed.
func TestExampleRouteTests(t *testing.T) {
	t.Chdir("..")
	var stdout, stderr bytes.Buffer
	code := cmd.Execute([]string{"test", "-f", "examples/", "--cases", "examples/route-tests.yaml", "--coverage"},
		cmd.Streams{In: &bytes.Buffer{}, Out: &stdout, Err: &stderr})
	if code != 0 || !strings.Contains(stdout.String(), "\nCoverage: ") || stderr.Len() > 0 {
		t.Errorf("exit %d, want 0 with a coverage line and nothing on stderr\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
