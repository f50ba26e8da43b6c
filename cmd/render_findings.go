package cmd

import (
	"fmt"
	"io"
	"slices"

	"github.com/gwsim/gwsim/diag"
)

// findingsReport is what check renders: the findings that count, those
// suppressed, and what was checked.
type findingsReport struct {
	Findings   []diag.Finding
	Suppressed []diag.Suppressed
	// Objects are the objects checked, sorted, with their sources, for
	// formats that list what passed too (JUnit).
	Objects []checkedObject
	// Threshold is the least severity that fails the run.
	Threshold diag.Severity
	// Root is the repository root (findRepoRoot) that the CI formats
	// (SARIF, GitHub, GitLab) locate files against; "" takes relative
	// paths as they are.
	Root string
	// Unread is set when the input could not be read (exit 2) and the
	// report holds the input errors only.
	Unread bool
	// Hidden are the findings below the output threshold
	// (--output-threshold): counted in the summary, not printed.
	Hidden []diag.Finding
	// OutputThreshold is the least severity printed, when Hidden is set.
	OutputThreshold diag.Severity
	// Width is the column text output wraps messages at (--width); 0
	// prints each finding on one line.
	Width int
}

// summary counts the report's findings, those printed and those hidden.
func (r findingsReport) summary() summary {
	s := summarize(append(slices.Clip(r.Findings), r.Hidden...), r.Suppressed)
	s.Hidden = len(r.Hidden)
	s.below = r.OutputThreshold
	return s
}

// locator maps the report's files onto repository paths.
func (r findingsReport) locator() *repoLocator { return &repoLocator{root: r.Root} }

// checkedObject is one object of the input and where it starts.
type checkedObject struct {
	Ref    diag.ObjectRef
	Source diag.Source
}

// findingsRenderer prints a findings report in one output format. Each
// format lives in its own file (render_findings_<format>.go).
type findingsRenderer interface {
	render(w io.Writer, r findingsReport) error
}

// findingsFormats are check's output formats, the first the default, each
// with its renderer.
var findingsFormats = []format{formatText, formatJSON, formatGitHub, formatSARIF, formatJUnit, formatGitLab, formatMarkdown}

func findingsRendererFor(f format) findingsRenderer {
	switch f {
	case formatJSON:
		return jsonFindings{}
	case formatGitHub:
		return githubFindings{}
	case formatSARIF:
		return sarifFindings{}
	case formatJUnit:
		return junitFindings{}
	case formatGitLab:
		return gitlabFindings{}
	case formatMarkdown:
		return markdownFindings{}
	}
	return textFindings{}
}

// renderFindings prints a report, its findings already sorted.
func renderFindings(w io.Writer, f format, r findingsReport) error {
	return findingsRendererFor(f).render(w, r)
}

// summary counts findings by severity, and those suppressed.
type summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
	// Hidden counts the findings --output-threshold left out.
	Hidden int `json:"hidden,omitempty"`
	below  diag.Severity
}

func summarize(fs []diag.Finding, suppressed []diag.Suppressed) summary {
	s := summary{Suppressed: len(suppressed)}
	for _, f := range fs {
		switch f.Severity {
		case diag.Error:
			s.Errors++
		case diag.Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
	return s
}

// String renders `1 error, 2 warnings, 0 infos`, and `, 3 suppressed` when
// any finding was.
func (s summary) String() string {
	out := fmt.Sprintf("%s, %s, %s",
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Infos, "info", "infos"))
	if s.Suppressed > 0 {
		out += fmt.Sprintf(", %d suppressed", s.Suppressed)
	}
	if s.Hidden > 0 {
		out += fmt.Sprintf(" (%d below %s not shown)", s.Hidden, s.below)
	}
	return out
}

// plural renders a count with its noun: "1 error", "0 errors".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// findingText renders a finding without its location and severity, as
// formats that carry those apart show it: `Kind ns/name: field: message`.
func findingText(f diag.Finding) string {
	msg := f.Message
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	if f.Object.Kind != "" {
		msg = f.Object.String() + ": " + msg
	}
	return msg
}
