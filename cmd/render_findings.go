package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/translate/diag"
)

// summary counts findings by severity.
type summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

func summarize(fs []diag.Finding) summary {
	var s summary
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

// String renders `1 error, 2 warnings, 0 infos`.
func (s summary) String() string {
	return fmt.Sprintf("%s, %s, %s",
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Infos, "info", "infos"))
}

// plural renders a count with its noun: "1 error", "0 errors".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// findingsDoc is the json shape of `gwsim check -o json`.
type findingsDoc struct {
	Findings []diag.Finding `json:"findings"`
	Summary  summary        `json:"summary"`
}

// renderFindings prints findings, already sorted, followed by a summary:
// compiler-style lines for text, GitHub Actions workflow commands for github,
// or one JSON document.
func renderFindings(w io.Writer, f format, fs []diag.Finding) error {
	switch f {
	case formatJSON:
		if fs == nil {
			fs = []diag.Finding{}
		}
		return writeJSON(w, findingsDoc{Findings: fs, Summary: summarize(fs)})
	case formatGitHub:
		for _, fd := range fs {
			if _, err := fmt.Fprintln(w, githubAnnotation(fd)); err != nil {
				return err
			}
		}
	default:
		for _, fd := range fs {
			if _, err := fmt.Fprintln(w, fd.String()); err != nil {
				return err
			}
		}
	}
	_, err := fmt.Fprintln(w, summarize(fs).String())
	return err
}

// githubAnnotation renders a finding as a workflow command
// (`::error file=F,line=L,title=Reason::Kind ns/name: message`) so that
// GitHub shows it on the line of YAML it is about. Findings on assumed
// objects have no file and annotate the run instead.
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
	if f.Reason != "" {
		props = append(props, "title="+escapeGitHubProperty(f.Reason))
	}
	msg := f.Message
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	if f.Object.Kind != "" {
		msg = f.Object.String() + ": " + msg
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeGitHubData(msg)
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
