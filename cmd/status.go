package cmd

import "io"

// statusCommand is `gwsim status`: every Gateway API object's status.
func statusCommand() pipelineCommand {
	view := &tableView{}
	return pipelineCommand{
		use:     "status",
		short:   "Print the status of every Gateway API object, as kubectl would show it",
		long:    statusLong,
		formats: []format{formatYAML, formatJSON, formatText, formatTable},
		options: view,
		render: func(w io.Writer, f format, out outcome) error {
			if f == formatTable {
				return renderStatusTable(w, out.Result.Objects, *view)
			}
			return renderStatus(w, f, out.Result.Objects)
		},
	}
}

const statusLong = `Print the status a conformant controller would write on every Gateway API
object: YAML (the default, and text) as 'kubectl get -o yaml' shows it, a v1
List in JSON, or with -o table one line per object and per listener, route
parent and policy ancestor, its conditions summarised and unhealthy lines
first.`
