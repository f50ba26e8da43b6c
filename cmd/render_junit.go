package cmd

import (
	"encoding/xml"
	"io"
	"slices"

	"github.com/gwsim/gwsim/internal/safetext"
)

// The JUnit XML shapes CI systems read (GitLab, Jenkins, GitHub test
// reporters): testsuites of testcases, a testcase failing when it holds a
// failure element.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

// junitFailure and junitText hold their text as CDATA, so that the
// findings and traces in them keep their lines as printed.
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

// add appends a testcase and counts it.
func (s *junitSuite) add(c junitCase) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	if c.Failure != nil {
		s.Failures++
	}
}

// writeJUnit writes the suites with the XML header, counting their tests.
// encoding/xml writes CDATA as it is, so the characters XML 1.0 forbids are
// escaped here first (safetext.XML); attributes it escapes itself.
func writeJUnit(w io.Writer, doc junitSuites) error {
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}
	doc.Suites = slices.Clone(doc.Suites)
	for i := range doc.Suites {
		doc.Suites[i].Cases = slices.Clone(doc.Suites[i].Cases)
		for j := range doc.Suites[i].Cases {
			c := &doc.Suites[i].Cases[j]
			if c.Failure != nil {
				f := *c.Failure
				f.Text = safetext.XML(f.Text)
				c.Failure = &f
			}
			if c.SystemOut != nil {
				c.SystemOut = &junitText{Text: safetext.XML(c.SystemOut.Text)}
			}
		}
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
