package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/translate/explain"
	"github.com/gwsim/gwsim/translate/routetest"
)

const testLong = `Test runs a route table test file against the manifests: each test is a
request, written as a URL with curl-like options, and what the gateway
should do with it (the backend, the route rule, the status, the redirect's
Location, the rewritten path and host, headers the backend receives or
not). A failed test prints the explain trace of its request.

With --coverage it also reports the route rule matches no test exercised;
--fail-under fails the run when too few were. The cases file format is in
docs/test.md.

Exit codes:
  0  every test passed (and coverage is not below --fail-under)
  1  a test failed, or coverage is below --fail-under
  2  usage error; unreadable or unparsable manifests or cases file
  3  a bug in gwsim (reported with its version; please report it)`

const testExample = `  gwsim test -f manifests/ --cases route-tests.yaml
  gwsim test -f manifests/ --cases route-tests.yaml --coverage --fail-under 90
  gwsim test -f manifests/ --cases route-tests.yaml -o json`

// testFlags are the flags of `gwsim test` beyond the shared ones.
type testFlags struct {
	pipeline  pipelineFlags
	Cases     string
	Coverage  bool
	FailUnder float64
	KeepPath  bool
}

// testCommand is `gwsim test --cases FILE`.
func testCommand(streams Streams, env Env) *cobra.Command {
	flags := &testFlags{}
	c := &cobra.Command{
		Use:     "test --cases FILE",
		Short:   "Check requests against expected routes, backends and answers",
		Long:    testLong,
		Example: testExample,
		Args:    noArgs,
	}
	c.RunE = func(c *cobra.Command, _ []string) error { return flags.run(c, streams, env) }
	flags.pipeline.register(c, formatText, formatJSON, formatJUnit)
	fs := c.Flags()
	fs.StringVar(&flags.Cases, "cases", "", "route table test file (YAML)")
	fs.BoolVar(&flags.Coverage, "coverage", false, "report the route rules and matches no test exercised")
	fs.BoolVar(&flags.KeepPath, "no-normalize-path", false, "route paths as sent; by default they are normalised first (dot segments removed, slashes merged), as Envoy-based gateways do")
	fs.Float64Var(&flags.FailUnder, "fail-under", 0, "fail when fewer than this percentage of route matches are exercised (implies --coverage)")
	return c
}

func (t *testFlags) run(c *cobra.Command, streams Streams, env Env) error {
	f, err := t.pipeline.complete(c)
	if err != nil {
		return err
	}
	if t.Cases == "" {
		return usageErrorf("no cases: pass a route table test file with --cases FILE")
	}
	if t.FailUnder < 0 || t.FailUnder > 100 {
		return usageErrorf("--fail-under %v is not a percentage (0-100)", t.FailUnder)
	}
	suite, err := t.readCases(streams.Err)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &t.pipeline, streams, env)
	if err != nil {
		return err
	}
	in := explain.NewInput(out.Result.Output, out.Result.Objects, out.Sources)
	report := routetest.Run(in, suite, routetest.Options{Coverage: t.Coverage, FailUnder: t.FailUnder, KeepPath: t.KeepPath})
	w := newOutput(streams.Out, streams.fastMode())
	if err := renderTestReport(w, f, report); err != nil {
		return outputError(w, "output", err)
	}
	if err := flushOut(streams.Out); err != nil {
		return writeError("output", err)
	}
	if t.pipeline.Verbose {
		printFindings(streams.Err, out.Findings)
	}
	if !report.OK() {
		return &exitError{code: exitFindings}
	}
	return nil
}

// readCases reads and parses the cases file; its problems go to w, each
// at its file:line, and end the command with exit 2.
func (t *testFlags) readCases(w io.Writer) (routetest.Suite, error) {
	data, err := os.ReadFile(t.Cases)
	if err != nil {
		return routetest.Suite{}, &exitError{code: exitUsage, err: fmt.Errorf("reading the cases file: %w", err)}
	}
	suite, problems := routetest.Parse(t.Cases, data, t.pipeline.Namespace)
	if len(problems) == 0 {
		return suite, nil
	}
	for _, p := range problems {
		fmt.Fprintln(w, problemString(p))
	}
	return routetest.Suite{}, &exitError{code: exitUsage}
}
