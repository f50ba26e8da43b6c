package golden

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/internal/textwrap"
)

// splitParts is how many files the order-and-split test spreads documents over.
const splitParts = 3

// splitDir is the folder, relative to a temp dir, that holds the split files.
const splitDir = "split"

// TestOrderAndSplitInvariance feeds each case's documents back in reverse
// and in a shuffled order, spread round robin over three files, and expects
// the golden output apart from source positions: gwsim's result may depend on
// what the manifests say, never on how they are laid out. Findings are
// listed in file and line order, as a compiler lists them, so the lines
// of each run of findings are compared as a set (all lines, for outputs
// that hold findings as JSON objects).
func TestOrderAndSplitInvariance(t *testing.T) {
	orders := []struct {
		name    string
		reorder func([]string)
	}{
		{"reversed", slices.Reverse[[]string]},
		{"shuffled", func(docs []string) {
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
		}},
	}
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			if !c.splitTest() {
				t.Skip(c.Spec.SplitTestReason)
			}
			docs := readDocuments(t, c)
			for _, o := range orders {
				t.Run(o.name, func(t *testing.T) {
					reordered := slices.Clone(docs)
					o.reorder(reordered)
					root := writeSplit(t, reordered)
					copyCasesFiles(t, c, root)
					t.Chdir(root)
					for _, cm := range c.commands() {
						// A base revision's diff is about the repository's
						// layout (symlinks, attributes), which a split erases.
						if cm.byFile() || cm.Base != "" {
							continue
						}
						got := run(t, c, cm.Args, splitDir+"/", false, defaultRunner).transcript(cm)
						want := readGolden(t, c, cm)
						order := sortFindings
						if findingsAsData(cm.File) {
							order = sortLines
						}
						if diff := cmp.Diff(order(normaliseSources(want)), order(normaliseSources(got))); diff != "" {
							t.Errorf("%s differs after reordering and splitting (-golden +split):\n%s", cm.File, diff)
						}
					}
				})
			}
		})
	}
}

// readDocuments returns every document of a case's input files, in file
// order. JSON files hold one document each.
func readDocuments(t *testing.T, c goldenCase) []string {
	t.Helper()
	files, err := inputFiles(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(c.Dir, inputDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) == ".json" {
			docs = append(docs, string(b))
			continue
		}
		docs = append(docs, splitDocuments(string(b))...)
	}
	return docs
}

// splitDocuments splits a YAML stream on lines that are exactly `---`,
// dropping documents with nothing but blank lines and comments. It is not a
// YAML parser: golden inputs avoid other document markers, and the one case
// that uses them opts out of the split test.
func splitDocuments(s string) []string {
	var docs []string
	var cur strings.Builder
	flush := func() {
		if hasContent(cur.String()) {
			docs = append(docs, cur.String())
		}
		cur.Reset()
	}
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.TrimRight(line, "\r\n") == "---" {
			flush()
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return docs
}

// hasContent reports whether a document has a line that is neither blank
// nor a comment.
func hasContent(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(line)
		if l != "" && !strings.HasPrefix(l, "#") {
			return true
		}
	}
	return false
}

// writeSplit writes docs round robin into splitParts files under a new temp
// dir and returns the temp dir.
func writeSplit(t *testing.T, docs []string) string {
	t.Helper()
	root := t.TempDir()
	parts := make([][]string, splitParts)
	for i, d := range docs {
		parts[i%splitParts] = append(parts[i%splitParts], ensureNewline(d))
	}
	if err := os.Mkdir(filepath.Join(root, splitDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, p := range parts {
		name := filepath.Join(root, splitDir, fmt.Sprintf("part-%d.yaml", i))
		if err := os.WriteFile(name, []byte(strings.Join(p, "---\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// copyCasesFiles copies the cases files of c's test runs, and the old
// side of a change, and its config file, under root, at the paths the runs name them by.
func copyCasesFiles(t *testing.T, c goldenCase, root string) {
	t.Helper()
	names := make([]string, 0, len(c.Spec.Test))
	for _, tr := range c.Spec.Test {
		names = append(names, tr.Cases)
	}
	if c.Spec.Diff != nil && c.Spec.Diff.Old != "" {
		old, err := filesUnder(filepath.Join(c.Dir, c.Spec.Diff.Old))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range old {
			names = append(names, filepath.Join(c.Spec.Diff.Old, f))
		}
	}
	if _, err := os.Stat(filepath.Join(c.Dir, configFile)); err == nil {
		names = append(names, configFile)
	}
	// The platform's objects a check reads with --gateways sit beside
	// input/ and are not split.
	for _, ch := range c.Spec.Check {
		for i, a := range ch.Args {
			if a != "--gateways" || i+1 >= len(ch.Args) {
				continue
			}
			fs, err := filesUnder(filepath.Join(c.Dir, ch.Args[i+1]))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				names = append(names, filepath.Join(ch.Args[i+1], f))
			}
		}
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(c.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// sourcePattern matches a source position in output: a path under input/
// or split/, or standard input, optionally followed by :line.
var sourcePattern = regexp.MustCompile(`(?:(?:input|split)/[^\s:"',)]+|<stdin>)(?::\d+)?`)

// parserLinePattern matches the line a YAML parse error quotes ("yaml: line
// 19: ..."), which the loader counts from the start of the file.
var parserLinePattern = regexp.MustCompile(`\bline \d+\b`)

// linePropertyPattern matches a line number given apart from its file, as
// the JSON, SARIF, GitLab and GitHub formats do.
var linePropertyPattern = regexp.MustCompile(`("line": |"startLine": |"begin": |\bline=)\d+`)

// fingerprintPattern matches a finding's fingerprint (SARIF, GitLab): a
// hash of its message, which for a parse error quotes the parser's line.
var fingerprintPattern = regexp.MustCompile(`("gwsimFinding/v1": |"fingerprint": )"[0-9a-f]{32}"`)

// normaliseSources replaces every source position with SOURCE, every line
// quoted by a parse error with "line N" and every fingerprint with HASH.
func normaliseSources(s string) string {
	// Text output wraps a message after its place, whose length differs
	// between layouts: compare findings unwrapped.
	s = strings.ReplaceAll(s, "\n"+textwrap.Gutter, " ")
	s = sourcePattern.ReplaceAllString(s, "SOURCE")
	s = linePropertyPattern.ReplaceAllString(s, "${1}N")
	s = fingerprintPattern.ReplaceAllString(s, `${1}"HASH"`)
	return parserLinePattern.ReplaceAllString(s, "line N")
}

// findingLine matches a finding as check prints it, or as another command
// reports it on stderr (a "# " comment in the golden file), after
// normaliseSources.
var findingLine = regexp.MustCompile(`^(?:# |%% )?(?:SOURCE: )?(?:error|warning|info)(?:\[GWS\d+\])?: `)

// sortFindings sorts each run of consecutive finding lines.
func sortFindings(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && findingLine.MatchString(lines[j]) {
			j++
		}
		slices.Sort(lines[i:j])
		i = max(j, i+1)
	}
	return strings.Join(lines, "")
}

// findingsAsData reports an output that lists findings as JSON objects,
// workflow commands or table rows (SARIF, GitLab code quality, -o json,
// -o github, -o markdown):
// a finding spans many lines or is not in the text form,
// so its lines are compared as a multiset.
func findingsAsData(file string) bool {
	return strings.Contains(file, "sarif") || strings.Contains(file, "gitlab") || strings.Contains(file, "json") || strings.Contains(file, "github") ||
		strings.Contains(file, "markdown")
}

// sortLines sorts all the lines of s.
func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

func TestSplitDocuments(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"single", "a: 1\n", []string{"a: 1\n"}},
		{"leading marker", "---\na: 1\n", []string{"a: 1\n"}},
		{"two", "a: 1\n---\nb: 2\n", []string{"a: 1\n", "b: 2\n"}},
		{"empty and comment-only dropped", "# c\n---\n\n---\na: 1\n---\n", []string{"a: 1\n"}},
		{"comment kept with content", "# about a\na: 1\n", []string{"# about a\na: 1\n"}},
		{"marker with text is not split", "a: |\n  --- x\n", []string{"a: |\n  --- x\n"}},
		{"CRLF", "a: 1\r\n---\r\nb: 2\r\n", []string{"a: 1\r\n", "b: 2\r\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, splitDocuments(tt.in)); diff != "" {
				t.Errorf("splitDocuments (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormaliseSources(t *testing.T) {
	tests := []struct{ in, want string }{
		{"input/a.yaml:12: error: x", "SOURCE: error: x"},
		{"split/part-2.yaml:3: error: x", "SOURCE: error: x"},
		{"  source: input/dir/b.yml:7\n", "  source: SOURCE\n"},
		{"file input/c.json", "file SOURCE"},
		{"<stdin>:4: warning: y", "SOURCE: warning: y"},
		{"no source here: 12", "no source here: 12"},
		{"input/a.yaml:19: error: yaml: line 19: did not find expected key", "SOURCE: error: yaml: line N: did not find expected key"},
		{"pipeline 3", "pipeline 3"},
		{"\"file\": \"input/a.yaml\",\n  \"line\": 23\n", "\"file\": \"SOURCE\",\n  \"line\": N\n"},
		// A line given apart from its file is normalised whatever the file:
		// the old side of a diff case is not split, so this only loosens it.
		{"\"file\": \"old/a.yaml\",\n  \"line\": 23\n", "\"file\": \"old/a.yaml\",\n  \"line\": N\n"},
	}
	for _, tt := range tests {
		if got := normaliseSources(tt.in); got != tt.want {
			t.Errorf("normaliseSources(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
