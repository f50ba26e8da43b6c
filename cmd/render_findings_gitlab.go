package cmd

import (
	"io"

	"github.com/gwsim/gwsim/translate/diag"
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
	for _, f := range r.Findings {
		// Code Quality requires a path and a line: findings about no
		// file (assumed objects) point at the repository root.
		loc := gitlabLocation{Path: ".", Lines: gitlabLines{Begin: 1}}
		if f.Source.File != "" {
			loc.Path = f.Source.File
		}
		if f.Source.Line > 0 {
			loc.Lines.Begin = f.Source.Line
		}
		issues = append(issues, gitlabIssue{
			Description: f.Code + " " + findingText(f), CheckName: f.Code,
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
