package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/translate/routetest"
	"github.com/gwsim/gwsim/translate/shadow"
)

// renderTestReport prints a test run: one line per test, the failures and
// explain trace of each failed one, a summary, then coverage (text); or
// the report as JSON or JUnit.
func renderTestReport(w io.Writer, f format, r routetest.Report) error {
	switch f {
	case formatJSON:
		return writeJSON(w, r)
	case formatJUnit:
		return renderTestJUnit(w, r)
	}
	var b strings.Builder
	for _, t := range r.Tests {
		writeTestResult(&b, t)
	}
	if !strings.HasSuffix(b.String(), "\n\n") { // a failed test's trace ends with a blank line
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: %d passed, %d failed\n", plural(len(r.Tests), "test", "tests"), r.Passed, r.Failed)
	if c := r.Coverage; c != nil {
		writeCoverage(&b, *c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTestResult(b *strings.Builder, t routetest.Result) {
	status := "PASS"
	if !t.Passed {
		status = "FAIL"
	}
	fmt.Fprintf(b, "%s  %s (%s)\n", status, t.Name, t.Source)
	for _, f := range t.Failures {
		fmt.Fprintf(b, "      - %s\n", failureString(f))
	}
	if t.Caveat != "" && t.Trace == nil {
		fmt.Fprintf(b, "      caveat: %s\n", safetext.Visible(t.Caveat))
	}
	if t.Trace == nil {
		return
	}
	var trace strings.Builder
	if err := renderExplain(&trace, formatText, *t.Trace); err != nil {
		panic("bug: rendering to a strings.Builder failed: " + err.Error())
	}
	b.WriteString("\n")
	for _, line := range strings.Split(strings.TrimRight(trace.String(), "\n"), "\n") {
		if line == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("      " + line + "\n")
	}
	b.WriteString("\n")
}

// failureString renders `status: want 301, got 404` or `header X-A: want
// absent, got 1`.
func failureString(f routetest.Failure) string {
	what := f.Expect
	if f.Header != "" {
		what += " " + f.Header
	}
	return fmt.Sprintf("%s: want %s, got %s", what, f.Want, f.Got)
}

func writeCoverage(b *strings.Builder, c routetest.Coverage) {
	fmt.Fprintf(b, "\nCoverage: %d of %d route matches (%s%%), %d of %d rules\n",
		c.Covered, c.Matches, strconv.FormatFloat(c.Percent, 'f', -1, 64), c.RulesCovered, c.Rules)
	if c.Below {
		fmt.Fprintf(b, "Coverage is below --fail-under %s%%\n", strconv.FormatFloat(c.FailUnder, 'f', -1, 64))
	}
	if len(c.Uncovered) > 0 {
		b.WriteString("Not exercised by any test:\n")
		for _, s := range c.Uncovered {
			fmt.Fprintf(b, "- %s\n", routeStepString(s))
		}
	}
	if len(c.Unreachable) > 0 {
		b.WriteString("Unreachable (an earlier match takes every request; not counted):\n")
		for _, u := range c.Unreachable {
			fmt.Fprintf(b, "- %s: shadowed by %s\n", routeStepString(u.RouteStep), shadow.OriginString(u.ShadowedBy))
		}
	}
}

// problemString renders a cases file problem as a compiler does.
func problemString(p routetest.Problem) string {
	var b strings.Builder
	if loc := p.Source.String(); loc != "" {
		b.WriteString(loc + ": ")
	}
	b.WriteString("error: ")
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}
