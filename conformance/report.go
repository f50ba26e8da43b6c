package conformance

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Outcome is what happened to one upstream test in a run.
type Outcome string

const (
	Passed  Outcome = "pass"
	Failed  Outcome = "fail"
	Skipped Outcome = "skip"
	// Missing means the run printed no result for the test (the child
	// process died, or the test was not enumerated).
	Missing Outcome = "missing"
)

// TestResult is one row of the report.
type TestResult struct {
	Name    string
	Outcome Outcome
	// Reason is the skip reason, or for a failure the expected-failures
	// entry (empty for an unexpected failure).
	Reason string
	// Log is the test's own output, kept for failures.
	Log []string
}

// childTestName is the Go test that runs the upstream tests as subtests, in
// a child process so that their failures do not fail the parent directly
// (the parent decides, against the expected-failures list).
const childTestName = "TestUpstreamSuiteChild"

var (
	resultLine = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): ` + childTestName + `/([A-Za-z0-9]+) \(`)
	markerLine = regexp.MustCompile(`^=== (RUN|CONT|NAME|PAUSE)\s+` + childTestName + `/([A-Za-z0-9]+)`)
)

// parseChildOutput reads `go test -v` output of the child test and returns
// each top-level subtest's outcome and log, by name. Output of parallel
// subtests interleaves; the === RUN/CONT/NAME markers say whose lines follow.
// A skipped test's reason is its last log line (t.Skip's message).
func parseChildOutput(r io.Reader) (map[string]*TestResult, error) {
	out := map[string]*TestResult{}
	get := func(name string) *TestResult {
		if out[name] == nil {
			out[name] = &TestResult{Name: name, Outcome: Missing}
		}
		return out[name]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	var current string
	for sc.Scan() {
		line := sc.Text()
		if m := markerLine.FindStringSubmatch(line); m != nil {
			current = m[2]
			get(current)
			continue
		}
		if m := resultLine.FindStringSubmatch(line); m != nil {
			res := get(m[2])
			switch m[1] {
			case "PASS":
				res.Outcome = Passed
			case "FAIL":
				res.Outcome = Failed
			case "SKIP":
				res.Outcome = Skipped
				if len(res.Log) > 0 {
					res.Reason = skipMessage(res.Log[len(res.Log)-1])
				}
			}
			current = ""
			continue
		}
		if strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- ") {
			// A marker or result of the parent test: no subtest's output.
			current = ""
			continue
		}
		if current != "" {
			res := get(current)
			res.Log = append(res.Log, line)
		}
	}
	return out, sc.Err()
}

// skipMessage strips the "file.go:NN: " prefix t.Skip puts on its message.
func skipMessage(line string) string {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, ": "); i > 0 && strings.Contains(line[:i], ".go:") {
		return line[i+2:]
	}
	return line
}

// ExpectedFailure is one entry of expected-failures.txt.
type ExpectedFailure struct {
	Name, Reason string
}

// parseExpectedFailures reads lines of "TestName: reason"; blank lines and
// lines starting with # are comments. Every entry must have a reason.
func parseExpectedFailures(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ":")
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		if !ok || name == "" || reason == "" {
			return nil, fmt.Errorf("expected-failures.txt:%d: want \"TestName: the spec rule gwsim lacks\", got %q", n, line)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("expected-failures.txt:%d: %s is listed twice", n, name)
		}
		out[name] = reason
	}
	return out, sc.Err()
}

// Summary counts a run's outcomes.
type Summary struct{ Passed, Failed, Skipped int }

func summarize(results []TestResult) Summary {
	var s Summary
	for _, r := range results {
		switch r.Outcome {
		case Passed:
			s.Passed++
		case Failed, Missing:
			s.Failed++
		case Skipped:
			s.Skipped++
		}
	}
	return s
}

func (s Summary) String() string {
	return fmt.Sprintf("conformance: %d passed, %d failed, %d skipped", s.Passed, s.Failed, s.Skipped)
}

// writeTable prints the results as a Markdown table sorted by test name,
// followed by the summary line.
func writeTable(w io.Writer, results []TestResult) {
	results = slices.Clone(results)
	slices.SortFunc(results, func(a, b TestResult) int { return cmp.Compare(a.Name, b.Name) })
	fmt.Fprintln(w, "| test | result | reason |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	for _, r := range results {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.Name, r.Outcome, strings.ReplaceAll(r.Reason, "|", `\|`))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, summarize(results))
}
