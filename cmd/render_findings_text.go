package cmd

import (
	"fmt"
	"io"
)

// textFindings prints compiler-style lines
// (`file:line: error[GWS3001]: Kind ns/name: field: message`) and the
// summary.
type textFindings struct{}

func (textFindings) render(w io.Writer, r findingsReport) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintln(w, f.String()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.summary().String())
	return err
}
