package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/safetext"
)

// githubFindings prints GitHub Actions workflow commands, one per finding,
// then the summary.
type githubFindings struct{}

func (githubFindings) render(w io.Writer, r findingsReport) error {
	loc := r.locator()
	for _, fd := range r.Findings {
		if _, err := fmt.Fprintln(w, githubAnnotation(fd, loc)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.summary().String())
	return err
}

// githubAnnotation renders a finding as a workflow command
// (`::error file=F,line=L,title=GWS3001 BackendNotFound::Kind ns/name: message`)
// so that GitHub shows it on the line of YAML it is about, the file's path
// relative to the repository root. Findings about no file of the
// repository (a summary, standard input) annotate the run instead, the
// place they have leading their message.
func githubAnnotation(f diag.Finding, loc *repoLocator) string {
	level := "notice"
	switch f.Severity {
	case diag.Error:
		level = "error"
	case diag.Warning:
		level = "warning"
	}
	var props []string
	msg := findingText(f)
	if file, ok := loc.locate(f.Source.File); ok {
		props = append(props, "file="+escapeGitHubProperty(safetext.Visible(file)))
		if f.Source.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Source.Line))
		}
	} else if where := f.Source.String(); where != "" {
		msg = where + ": " + msg
	}
	if title := strings.TrimSpace(f.Code + " " + f.Reason); title != "" {
		props = append(props, "title="+escapeGitHubProperty(title))
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeGitHubData(safetext.Visible(msg))
}

// escapeGitHubData escapes a workflow command's message as the runner
// expects: %, CR and LF. The message is safetext.Visible already, so that
// other control characters show as escapes, not as themselves.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeGitHubProperty also escapes the property separators : and ,.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
