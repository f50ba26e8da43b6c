package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/translate/routetest"
)

// renderTestJUnit prints a test run as JUnit: one testcase per test, in one
// testsuite per cases file, a failed test's failures and explain trace in
// its failure element; coverage, when asked for, is a testcase of its own
// that fails under --fail-under.
func renderTestJUnit(w io.Writer, r routetest.Report) error {
	var suites []junitSuite
	for _, t := range r.Tests {
		file, _, _ := strings.Cut(t.Source, ":")
		if len(suites) == 0 || suites[len(suites)-1].Name != file {
			suites = append(suites, junitSuite{Name: file})
		}
		suites[len(suites)-1].add(junitTestCase(t, file))
	}
	if c := r.Coverage; c != nil {
		cov := junitCase{Name: "coverage", Classname: "gwsim test", SystemOut: &junitText{Text: fmt.Sprintf("%d of %d route matches covered (%.1f%%), %d of %d rules", c.Covered, c.Matches, c.Percent, c.RulesCovered, c.Rules)}}
		if c.Below {
			cov.Failure = &junitFailure{Message: fmt.Sprintf("coverage %.1f%% is below --fail-under %.1f%%", c.Percent, c.FailUnder)}
		}
		if len(suites) == 0 {
			suites = append(suites, junitSuite{Name: "gwsim test"})
		}
		suites[len(suites)-1].add(cov)
	}
	return writeJUnit(w, junitSuites{Name: "gwsim test", Suites: suites})
}

func junitTestCase(t routetest.Result, file string) junitCase {
	c := junitCase{Name: t.Name, Classname: file}
	if t.Passed {
		return c
	}
	var b strings.Builder
	writeTestResult(&b, t)
	msg := "failed"
	if len(t.Failures) > 0 {
		msg = failureString(t.Failures[0])
	}
	c.Failure = &junitFailure{Message: msg, Text: strings.TrimRight(b.String(), "\n")}
	return c
}
