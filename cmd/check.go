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
	condition, so it can gate CI (--failure-threshold warning fails on warnings
	too). Each finding has a stable code (GWS3001; docs/findings.md lists them),
	which --ignore, the gwsim.dev/ignore annotation and .gwsim.yaml suppress.
	With -o github, findings become GitHub Actions annotations on the line of
	YAML they are about; -o sarif, junit and gitlab write code-scanning, test
	and Code Quality reports.`,
		formats: findingsFormats,
		render: func(w io.Writer, f format, out outcome) error {
			r := findingsReport{Findings: out.Findings, Suppressed: out.Suppressed, Threshold: out.Threshold, Root: out.Root, Unread: out.Unread}
			if out.Result != nil && f == formatJUnit { // the one format that lists clean objects
				r.Objects = checkedObjects(out.Result.Objects, out.Sources)
			}
			return renderFindings(w, f, r)
		},
		findingsAreOutput: true,
	}
}
