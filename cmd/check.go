package cmd

import "io"

// checkCommand is `gwsim check`: the findings, as a CI gate.
func checkCommand() pipelineCommand {
	opts := &checkOptions{}
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
	YAML they are about (infos only with --output-threshold info); -o sarif,
	junit, gitlab and markdown write code-scanning, test, Code Quality and
	job-summary reports, and --output-file writes more of them in the same
	run.`,
		formats: findingsFormats,
		options: opts,
		render: func(w io.Writer, f format, out outcome) error {
			r := findingsReport{Findings: out.Findings, Suppressed: out.Suppressed, Threshold: out.Threshold, Root: out.Root, Unread: out.Unread,
				Width: opts.width(out.Columns)}
			if out.Result != nil && opts.lists(f, formatJUnit) { // the one format that lists clean objects
				r.Objects = checkedObjects(out.Result.Objects, out.Sources)
			}
			if err := renderFindings(w, f, opts.shown(r, f)); err != nil {
				return err
			}
			return opts.writeFiles(w, r, renderFindings)
		},
		findingsAreOutput: true,
	}
}
