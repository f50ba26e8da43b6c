package cmd

import "io"

// checkCommand is `gwsim check`: the findings, as a CI gate.
func checkCommand() pipelineCommand {
	return pipelineCommand{
		use:   "check",
		short: "List findings and exit 1 on errors or unhealthy conditions",
		long: `Print every finding about the manifests, sorted, then a summary: what the
	loader noticed, what gwsim assumed, what the translation rejected and every
	unhealthy status condition. Exits 1 on any error finding or unhealthy
	condition, so it can gate CI. With -o github, findings become GitHub Actions
	annotations on the line of YAML they are about.`,
		formats: []format{formatText, formatJSON, formatGitHub},
		render: func(w io.Writer, f format, out outcome) error {
			return renderFindings(w, f, out.Findings)
		},
		findingsAreOutput: true,
	}
}
