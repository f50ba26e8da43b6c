package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/translate/diag"
)

// githubFindings prints GitHub Actions workflow commands, one per finding,
// then the summary.
type githubFindings struct{}

func (githubFindings) render(w io.Writer, r findingsReport) error {
	for _, fd := range r.Findings {
		if _, err := fmt.Fprintln(w, githubAnnotation(fd)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, summarize(r.Findings, r.Suppressed).String())
	return err
}

// githubAnnotation renders a finding as a workflow command
// (`::error file=F,line=L,title=GWS3001 BackendNotFound::Kind ns/name: message`)
// so that GitHub shows it on the line of YAML it is about. Findings on
// assumed objects have no file and annotate the run instead.
func githubAnnotation(f diag.Finding) string {
	level := "notice"
	switch f.Severity {
	case diag.Error:
		level = "error"
	case diag.Warning:
		level = "warning"
	}
	var props []string
	if f.Source.File != "" {
		props = append(props, "file="+escapeGitHubProperty(f.Source.File))
		if f.Source.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Source.Line))
		}
	}
	if title := strings.TrimSpace(f.Code + " " + f.Reason); title != "" {
		props = append(props, "title="+escapeGitHubProperty(title))
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeGitHubData(findingText(f))
}

// escapeGitHubData escapes a workflow command's message as the runner
// expects: %, CR and LF.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeGitHubProperty also escapes the property separators : and ,.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
