package golden

import (
	"bytes"
	"os"
	"path/filepath"
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
