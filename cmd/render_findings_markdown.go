package cmd

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/safetext"
)

// markdownFindings prints a Markdown summary for a CI job summary
// (GITHUB_STEP_SUMMARY) or a merge request comment: the counts, then a
// table of the most severe findings, at most markdownTop of them, and how
// many more there are. Manifest text is escaped (safetext.Markdown), since
// the page renders it.
type markdownFindings struct{}

// markdownTop is how many findings the summary lists: a summary is read,
// the annotations and code scanning alerts hold every finding.
const markdownTop = 20

func (markdownFindings) render(w io.Writer, r findingsReport) error {
	var b strings.Builder
	b.WriteString("### gwsim check\n\n")
	fmt.Fprintf(&b, "**%s**\n", r.summary())
	if len(r.Findings) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	top := slices.Clone(r.Findings)
	// The findings come sorted by place; the most severe lead, in that
	// order within a severity.
	slices.SortStableFunc(top, func(a, b diag.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	more := max(0, len(top)-markdownTop)
	top = top[:len(top)-more]
	loc := r.locator()
	b.WriteString("\n| Severity | Code | Where | Finding |\n| --- | --- | --- | --- |\n")
	for _, f := range top {
		where := f.Source.String()
		if path, ok := loc.locate(f.Source.File); ok {
			where = (diag.Source{File: path, Line: f.Source.Line}).String()
		}
		code := safetext.Markdown(f.Code)
		if c, ok := diag.LookupCode(f.Code); ok {
			code = "[" + c.ID + "](" + c.HelpURL() + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.Severity, code, safetext.MarkdownCode(where), safetext.Markdown(findingText(f)))
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n%s more not listed here; `gwsim check` prints every one.\n", plural(more, "finding", "findings"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
