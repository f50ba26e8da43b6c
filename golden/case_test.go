package golden

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// caseFile is the name of the file that makes a folder a golden case.
const caseFile = "case.yaml"

// configFile is gwsim's config file; a case that has one in its folder
// shows that gwsim finds it upward from input/.
const configFile = ".gwsim.yaml"

// inputDir is where a case keeps its manifests; the CLI reads it as `-f input/`
// so that sources in the outputs read input/<file>:<line> on every machine.
const inputDir = "input"

// caseSpec is the content of a case.yaml.
type caseSpec struct {
	// Description says what the case shows, in a sentence or two.
	Description string `json:"description"`
	// Args are extra CLI arguments passed after the command, e.g. ["--strict"].
	Args []string `json:"args,omitempty"`
	// Stdin, when set, names a file (relative to the case folder) fed to the
	// CLI on standard input with `-f -` instead of reading input/.
	Stdin string `json:"stdin,omitempty"`
	// SplitTest turns the order-and-split test off when false; the case
	// must then give the reason in SplitTestReason.
	SplitTest       *bool  `json:"splitTest,omitempty"`
	SplitTestReason string `json:"splitTestReason,omitempty"`
	// Explain lists requests traced with `gwsim explain`; each writes
	// explain-<name>.txt (text, with the exit code) and explain-<name>.json.
	Explain []explainSpec `json:"explain,omitempty"`
	// Test lists runs of `gwsim test`; each writes test-<name>.txt (text,
	// with the exit code), test-<name>.json and test-<name>.junit.xml.
	Test []testSpec `json:"test,omitempty"`
	// Diff, when set, makes the case a change: input/ is the new version
	// and Diff.Old the old one, and `gwsim diff` writes diff.txt (with the
	// exit code), diff.json and diff.md.
	Diff *diffSpec `json:"diff,omitempty"`
	// Views lists the extra renderings the case records, by name (see
	// views in views_test.go): routes-wide, status-table, graph-dot,
	// graph-mermaid.
	Views []string `json:"views,omitempty"`
	// Check lists more runs of `gwsim check` (other output formats,
	// suppressions, thresholds); each writes check-<name>.txt: stdout,
	// stderr and the exit code.
	Check []checkSpec `json:"check,omitempty"`
}

// diffSpec is the old side of a case that shows a change: exactly one of
// Old and Base.
type diffSpec struct {
	// Old is the folder of the case that holds the old manifests.
	Old string `json:"old,omitempty"`
	// Base names a folder holding a repository's whole tree at the old
	// revision; the case then runs `gwsim diff --base HEAD -f input/` in a
	// git repository made from it (see baseRepo).
	Base string `json:"base,omitempty"`
}

// checkSpec is one more run of `gwsim check` on the case's input.
type checkSpec struct {
	// Name names the output file, as an explainSpec's does.
	Name string `json:"name"`
	// Args are check's arguments: -o, --ignore, --failure-threshold, ...
	Args []string `json:"args"`
}

// explainSpec is one request a case traces.
type explainSpec struct {
	// Name names the output files: lower-case letters, digits and dashes.
	Name string `json:"name"`
	// Args are explain's arguments: the URL and its flags (-H, --sni...).
	Args []string `json:"args"`
}

// testSpec is one run of `gwsim test` on the case's input.
type testSpec struct {
	// Name names the output files, as an explainSpec's does.
	Name string `json:"name"`
	// Cases is the cases file, relative to the case folder; when it is
	// not under input/, it is one of the case's files.
	Cases string `json:"cases"`
	// Args are more arguments: --coverage, --fail-under, ...
	Args []string `json:"args,omitempty"`
}

// explainName is what an explain request's or a test run's name may hold.
var explainName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// goldenCase is one folder under golden/.
type goldenCase struct {
	Name string
	// Dir is absolute: tests change the working directory.
	Dir  string
	Spec caseSpec
}

// splitTest reports whether the order-and-split test runs on this case.
func (c goldenCase) splitTest() bool { return c.Spec.SplitTest == nil || *c.Spec.SplitTest }

// loadCases reads every case folder next to this file, sorted by name.
func loadCases(t *testing.T) []goldenCase {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c, err := loadCase(e.Name())
		if err != nil {
			t.Fatalf("case %s: %v", e.Name(), err)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases found")
	}
	return cases
}

// loadCase reads and checks one case.yaml. Unknown fields are errors so that
// a misspelt option does not silently turn a test off.
func loadCase(name string) (goldenCase, error) {
	dir, err := filepath.Abs(name)
	if err != nil {
		return goldenCase{}, err
	}
	b, err := os.ReadFile(filepath.Join(dir, caseFile))
	if err != nil {
		return goldenCase{}, err
	}
	var spec caseSpec
	if err := yaml.UnmarshalStrict(b, &spec); err != nil {
		return goldenCase{}, fmt.Errorf("%s: %w", caseFile, err)
	}
	c := goldenCase{Name: name, Dir: dir, Spec: spec}
	return c, c.validate()
}

// validate checks what the YAML decoder cannot.
func (c goldenCase) validate() error {
	var errs []error
	if c.Spec.Description == "" {
		errs = append(errs, errors.New("case.yaml: description is required"))
	}
	if !c.splitTest() && c.Spec.SplitTestReason == "" {
		errs = append(errs, errors.New("case.yaml: splitTest: false needs a splitTestReason"))
	}
	if c.splitTest() && c.Spec.SplitTestReason != "" {
		errs = append(errs, errors.New("case.yaml: splitTestReason is set but splitTest is not false"))
	}
	if c.Spec.Stdin != "" {
		if _, err := os.Stat(filepath.Join(c.Dir, c.Spec.Stdin)); err != nil {
			errs = append(errs, fmt.Errorf("case.yaml: stdin: %w", err))
		}
	}
	names := make([]string, len(c.Spec.Explain))
	for i, e := range c.Spec.Explain {
		names[i] = e.Name
	}
	errs = append(errs, checkRunNames("explain", names)...)
	for i, e := range c.Spec.Explain {
		if len(e.Args) == 0 {
			errs = append(errs, fmt.Errorf("case.yaml: explain[%d]: args must hold the URL", i))
		}
	}
	errs = append(errs, c.validateTests()...)
	if d := c.Spec.Diff; d != nil {
		errs = append(errs, d.validate(c.Dir)...)
	}
	errs = append(errs, c.validateViews()...)
	errs = append(errs, c.validateChecks()...)
	if files, err := inputFiles(c.Dir); err != nil {
		errs = append(errs, err)
	} else if len(files) == 0 {
		errs = append(errs, errors.New("input/ holds no files"))
	}
	return errors.Join(errs...)
}

// validate checks that a change names exactly one old side, and that it
// is a folder of the case other than input/.
func (d diffSpec) validate(dir string) []error {
	if (d.Old == "") == (d.Base == "") {
		return []error{errors.New("case.yaml: diff needs exactly one of old and base")}
	}
	name, field := d.Old, "old"
	if d.Base != "" {
		name, field = d.Base, "base"
	}
	if st, err := os.Stat(filepath.Join(dir, name)); name == inputDir || err != nil || !st.IsDir() {
		return []error{fmt.Errorf("case.yaml: diff.%s must name a folder of the case other than input/: %q", field, name)}
	}
	return nil
}

// checkRunNames checks the names of a case's runs of one command: they
// name output files, so they are unique and spelt for file names.
func checkRunNames(command string, names []string) []error {
	var errs []error
	seen := map[string]bool{}
	for i, n := range names {
		if !explainName.MatchString(n) || seen[n] {
			errs = append(errs, fmt.Errorf("case.yaml: %s[%d]: name %q must be unique, lower-case letters, digits and dashes", command, i, n))
		}
		seen[n] = true
	}
	return errs
}

// validateTests checks the case's test runs.
func (c goldenCase) validateTests() []error {
	names := make([]string, len(c.Spec.Test))
	for i, tr := range c.Spec.Test {
		names[i] = tr.Name
	}
	errs := checkRunNames("test", names)
	for i, tr := range c.Spec.Test {
		if _, err := os.Stat(filepath.Join(c.Dir, tr.Cases)); tr.Cases == "" || err != nil {
			errs = append(errs, fmt.Errorf("case.yaml: test[%d]: cases must name a file of the case: %q", i, tr.Cases))
		}
	}
	return errs
}

// validateChecks checks the case's extra check runs.
func (c goldenCase) validateChecks() []error {
	names := make([]string, len(c.Spec.Check))
	for i, ch := range c.Spec.Check {
		names[i] = ch.Name
	}
	errs := checkRunNames("check", names)
	for i, ch := range c.Spec.Check {
		if len(ch.Args) == 0 {
			errs = append(errs, fmt.Errorf("case.yaml: check[%d]: args must say what differs from check.txt", i))
		}
	}
	return errs
}

// casesFiles lists the cases files of the case's test runs that are not
// under input/: they are files of the case folder of their own.
func (c goldenCase) casesFiles() []string {
	var out []string
	for _, tr := range c.Spec.Test {
		if first, _, _ := strings.Cut(filepath.ToSlash(tr.Cases), "/"); first != inputDir && !slices.Contains(out, tr.Cases) {
			out = append(out, tr.Cases)
		}
	}
	return out
}

// inputFiles lists the files under dir/input, relative to dir/input, sorted.
func inputFiles(dir string) ([]string, error) { return filesUnder(filepath.Join(dir, inputDir)) }

// filesUnder lists the files under root, relative to root, sorted.
func filesUnder(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		files = append(files, rel)
		return err
	})
	slices.Sort(files)
	return files, err
}

// TestCaseLayout keeps case folders tidy: nothing but case.yaml, input/ and
// the outputs, so that a renamed command cannot leave a stale golden file
// that nobody compares any more.
func TestCaseLayout(t *testing.T) {
	for _, c := range loadCases(t) {
		known := append([]string{caseFile, inputDir, configFile}, c.casesFiles()...)
		if d := c.Spec.Diff; d != nil {
			known = append(known, d.Old, d.Base)
		}
		for _, ch := range c.Spec.Check {
			// A folder of the platform's objects read with --gateways.
			if i := slices.Index(ch.Args, "--gateways"); i >= 0 && i+1 < len(ch.Args) {
				known = append(known, strings.TrimSuffix(ch.Args[i+1], "/"))
			}
		}
		for _, cmd := range c.commands() {
			known = append(known, cmd.File)
		}
		entries, err := os.ReadDir(c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !slices.Contains(known, e.Name()) {
				t.Errorf("%s: unexpected file %s (known: %v)", c.Name, e.Name(), known)
			}
		}
	}
}
