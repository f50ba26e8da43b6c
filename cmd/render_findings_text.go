package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/internal/textwrap"
)

// textFindings prints compiler-style lines
// (`file:line: error[GWS3001]: Kind ns/name: field: message`) and the
// summary. A message that would make the line wider than the report's
// Width goes on on continuation lines (textwrap.Hanging); the first line
// keeps the place, code, object and field whole.
type textFindings struct{}

func (textFindings) render(w io.Writer, r findingsReport) error {
	for _, f := range r.Findings {
		head := f.Head()
		lines := textwrap.Hanging(head, f.String()[len(head):], r.Width)
		if _, err := fmt.Fprintln(w, strings.Join(lines, "\n")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.summary().String())
	return err
}
