package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gwsim/gwsim/internal/textwrap"
)

// TestCheckWidth: check's text output wraps a finding's message at the
// terminal's width (Env.Columns stands for a terminal) and at --width;
// output that is not a terminal's, and --width=0, keep one line per
// finding. The first line keeps the place, code, object and field whole,
// continuation lines start with the gutter, and the lines unwrapped are
// the one-line output.
func TestCheckWidth(t *testing.T) {
	files := map[string]string{"all.yaml": classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + otherServiceYAML}
	flat := runCLI(t, Env{}, files, "", "check", "-f", "@all.yaml")
	flatLines := strings.Split(strings.TrimSuffix(flat.stdout, "\n"), "\n")
	if len(flatLines) != 3 {
		t.Fatalf("not a terminal: want 2 findings and the summary on 3 lines:\n%s", flat.stdout)
	}
	if zero := runCLI(t, Env{Columns: 60}, files, "", "check", "--width=0", "-f", "@all.yaml"); zero.stdout != flat.stdout {
		t.Errorf("--width=0 on a terminal:\n%s\nwant one line per finding:\n%s", zero.stdout, flat.stdout)
	}
	tests := []struct {
		name    string
		columns int
		args    []string
		want    int
	}{
		{"terminal", 72, nil, 72},
		{"flag, no terminal", 0, []string{"--width=80"}, 80},
		{"flag over terminal", 72, []string{"--width=90"}, 90},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"check", "-f", "@all.yaml"}, tt.args...)
			got := runCLI(t, Env{Columns: tt.columns}, files, "", args...)
			if got.code != flat.code {
				t.Errorf("exit %d, want %d", got.code, flat.code)
			}
			checkWrapped(t, got.stdout, flatLines, tt.want)
		})
	}

	// A report file is not a terminal: it wraps at --width only.
	dir := t.TempDir()
	path := filepath.Join(dir, "findings.txt")
	runCLI(t, Env{Columns: 60}, files, "", "check", "-f", "@all.yaml", "--width=90", "-o", "json", "--output-file", "text="+path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if i := strings.Index(text, "all.yaml:"); i >= 0 {
		text = strings.ReplaceAll(text, text[:i], "") // runCLI's directory
	}
	checkWrapped(t, text, flatLines, 90)

	if got := runCLI(t, Env{}, files, "", "check", "--width=-2", "-f", "@all.yaml"); got.code != exitUsage {
		t.Errorf("--width=-2: exit %d, want %d", got.code, exitUsage)
	}
}

// checkWrapped checks that out is flat (one line per finding) wrapped at
// width.
func checkWrapped(t *testing.T, out string, flat []string, width int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var findings [][]string
	for _, l := range lines {
		if strings.HasPrefix(l, textwrap.Gutter) {
			findings[len(findings)-1] = append(findings[len(findings)-1], l)
			continue
		}
		findings = append(findings, []string{l})
	}
	if len(findings) != len(flat) {
		t.Fatalf("%d findings and summary, want %d:\n%s", len(findings), len(flat), out)
	}
	wrapped := false
	for i, f := range findings {
		if u := textwrap.Unwrap(f); u != flat[i] {
			t.Errorf("finding %d unwrapped:\n%s\nwant\n%s", i, u, flat[i])
		}
		wrapped = wrapped || len(f) > 1
		for j, l := range f {
			if j > 0 && utf8.RuneCountInString(l) > width {
				t.Errorf("line %q is wider than %d", l, width)
			}
		}
	}
	if !wrapped {
		t.Errorf("nothing wrapped at %d:\n%s", width, out)
	}
}
