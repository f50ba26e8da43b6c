package cmd

import (
	"io"

	"github.com/gwsim/gwsim/diag"
)

// gitlabFindings prints a GitLab Code Quality report: a JSON array with one
// issue per finding, which GitLab shows in merge requests. The format has
// no place for suppressed findings; they are left out.
type gitlabFindings struct{}

type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

func (gitlabFindings) render(w io.Writer, r findingsReport) error {
	issues := make([]gitlabIssue, 0, len(r.Findings))
	files := r.locator()
	for _, f := range r.Findings {
		// Code Quality requires a path relative to the repository and a
		// line: findings about no file of the repository (a summary,
		// standard input) point at its root, their place in the text.
		loc := gitlabLocation{Path: ".", Lines: gitlabLines{Begin: 1}}
		text := findingText(f)
		if path, ok := files.locate(f.Source.File); ok {
			loc.Path = path
			if f.Source.Line > 0 {
				loc.Lines.Begin = f.Source.Line
			}
		} else if where := f.Source.String(); where != "" {
			text = where + ": " + text
		}
		issues = append(issues, gitlabIssue{
			Description: f.Code + " " + text, CheckName: f.Code,
			Fingerprint: findingFingerprint(f), Severity: gitlabSeverity(f.Severity), Location: loc,
		})
	}
	return writeJSON(w, issues)
}

// gitlabSeverity maps a severity onto Code Quality's scale (info, minor,
// major, critical, blocker): an error breaks the build, so it is critical.
func gitlabSeverity(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "critical"
	case diag.Warning:
		return "major"
	}
	return "info"
}
