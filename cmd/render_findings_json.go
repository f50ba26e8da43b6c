package cmd

import (
	"io"

	"github.com/gwsim/gwsim/diag"
)

// jsonFindings prints one JSON document: the findings, the suppressed
// ones with the rule that suppressed each, and the summary.
type jsonFindings struct{}

// findingsDoc is the json shape of `gwsim check -o json`.
type findingsDoc struct {
	Findings   []diag.Finding    `json:"findings"`
	Suppressed []diag.Suppressed `json:"suppressed"`
	Summary    summary           `json:"summary"`
}

func (jsonFindings) render(w io.Writer, r findingsReport) error {
	doc := findingsDoc{Findings: r.Findings, Suppressed: r.Suppressed, Summary: r.summary()}
	if doc.Findings == nil {
		doc.Findings = []diag.Finding{}
	}
	if doc.Suppressed == nil {
		doc.Suppressed = []diag.Suppressed{}
	}
	return writeJSON(w, doc)
}
