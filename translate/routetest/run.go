package routetest

import (
	"github.com/gwsim/gwsim/translate/evaluate"
	"github.com/gwsim/gwsim/translate/explain"
)

// Options says what a run reports besides the tests.
type Options struct {
	// Coverage reports the route rules and matches no test exercised.
	Coverage bool
	// FailUnder, when above 0, is the lowest match coverage (a percentage)
	// that passes; it implies Coverage.
	FailUnder float64
	// KeepPath routes every request's path as sent, without normalising it.
	KeepPath bool
}

// Report is what a run found. Its JSON field names are a stable
// interface (docs/test.md); fields are only ever added.
type Report struct {
	Tests  []Result `json:"tests"`
	Passed int      `json:"passed"`
	Failed int      `json:"failed"`
	// Coverage is set when Options asked for it.
	Coverage *Coverage `json:"coverage,omitempty"`
}

// OK reports whether every test passed and coverage, if it has a floor,
// is not below it.
func (r Report) OK() bool {
	return r.Failed == 0 && (r.Coverage == nil || !r.Coverage.Below)
}

// Result is one test's outcome.
type Result struct {
	Name string `json:"name"`
	// Source is the test's file:line in the cases file.
	Source string `json:"source"`
	Passed bool   `json:"passed"`
	// Outcome and Status are what the request got (explain's outcome and
	// the HTTP status, 0 for none).
	Outcome  evaluate.Outcome `json:"outcome"`
	Status   int              `json:"status"`
	Failures []Failure        `json:"failures,omitempty"`
	// Caveat is set when the answer is not known: the request went
	// through an object whose effect gwsim does not simulate, so the test
	// checked only what the simulated part does (explain.Trace.Caveat).
	Caveat string `json:"caveat,omitempty"`
	// Trace explains the request, for a failed test only.
	Trace *explain.Trace `json:"trace,omitempty"`
}

// Run traces each test's request through in and checks it, in the order
// of the file.
func Run(in explain.Input, s Suite, opts Options) Report {
	r := Report{Tests: []Result{}}
	exercised := map[matchKey]bool{}
	for _, c := range s.Tests {
		req := c.Request
		req.KeepPath = req.KeepPath || opts.KeepPath
		t := explain.Explain(in, req)
		res := Result{Name: c.Name, Source: c.Source.String(), Outcome: t.Outcome, Status: t.Status, Failures: c.Expect.check(t), Caveat: t.Caveat}
		res.Passed = len(res.Failures) == 0
		if res.Passed {
			r.Passed++
		} else {
			r.Failed++
			res.Trace = &t
		}
		if r := routeOf(t); r != nil {
			exercised[keyOf(*r)] = true
		}
		r.Tests = append(r.Tests, res)
	}
	if opts.Coverage || opts.FailUnder > 0 {
		cov := coverage(in, exercised)
		if opts.FailUnder > 0 {
			cov.FailUnder = opts.FailUnder
			cov.Below = float64(cov.Covered)*100 < opts.FailUnder*float64(cov.Matches)
		}
		r.Coverage = &cov
	}
	return r
}
