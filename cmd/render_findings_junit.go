package cmd

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/scheme"
)

// junitFindings prints a JUnit report with one testcase per object checked,
// in one testsuite per file: a testcase fails when a finding about it is at
// or above the failure threshold, and lists the lesser ones as output.
// Findings about no object (a file that does not parse, an assumption) are
// a testcase of their file. Suppressed findings are counted in a property.
type junitFindings struct{}

// noFile names the suite, and the testcase, of findings about no file
// (an assumed object, the ignored-kinds summary).
const noFile = "(no file)"

// junitSubject is what a testcase is about: an object or a whole file.
type junitSubject struct {
	file   string
	object diag.ObjectRef
}

func (s junitSubject) name() string {
	if s.object.Kind == "" {
		return cmp.Or(s.file, noFile)
	}
	return s.object.String()
}

func (junitFindings) render(w io.Writer, r findingsReport) error {
	findings := map[junitSubject][]diag.Finding{}
	for _, o := range r.Objects {
		findings[junitSubject{file: o.Source.File, object: o.Ref}] = nil
	}
	for _, f := range r.Findings {
		s := junitSubject{file: f.Source.File, object: f.Object}
		findings[s] = append(findings[s], f)
	}
	subjects := make([]junitSubject, 0, len(findings))
	for s := range findings {
		subjects = append(subjects, s)
	}
	slices.SortFunc(subjects, func(a, b junitSubject) int {
		return cmp.Or(cmp.Compare(a.file, b.file), a.object.Compare(b.object))
	})
	var suites []junitSuite
	for _, s := range subjects {
		file := cmp.Or(s.file, noFile)
		if len(suites) == 0 || suites[len(suites)-1].Name != file {
			suites = append(suites, junitSuite{Name: file})
		}
		suites[len(suites)-1].add(junitCaseOf(s, file, findings[s], r.Threshold))
	}
	doc := junitSuites{Name: "gwsim check", Suites: suites}
	if len(r.Suppressed) > 0 && len(suites) > 0 {
		suites[0].Properties = &junitProperties{Property: []junitProperty{{Name: "suppressed", Value: strconv.Itoa(len(r.Suppressed))}}}
	}
	return writeJUnit(w, doc)
}

// junitCaseOf renders one subject's findings: those at or above the
// threshold as its failure, the others as its output.
func junitCaseOf(s junitSubject, file string, fs []diag.Finding, threshold diag.Severity) junitCase {
	c := junitCase{Name: s.name(), Classname: file}
	var failing, other []string
	firstCode := ""
	for _, f := range fs {
		if f.Severity >= threshold {
			failing = append(failing, f.String())
			firstCode = cmp.Or(firstCode, f.Code)
		} else {
			other = append(other, f.String())
		}
	}
	if len(failing) > 0 {
		c.Failure = &junitFailure{Message: plural(len(failing), "finding", "findings") + " at or above " + threshold.String(),
			Type: firstCode, Text: strings.Join(failing, "\n")}
	}
	if len(other) > 0 {
		c.SystemOut = &junitText{Text: strings.Join(other, "\n")}
	}
	return c
}

// checkedObjects lists the objects of a run with their sources, sorted.
func checkedObjects(objs []client.Object, sources diag.Sources) []checkedObject {
	s := scheme.New()
	out := make([]checkedObject, 0, len(objs))
	for _, o := range objs {
		ref := objectRef(o, s)
		out = append(out, checkedObject{Ref: ref, Source: sources.Of(ref)})
	}
	slices.SortFunc(out, func(a, b checkedObject) int { return a.Ref.Compare(b.Ref) })
	return out
}
