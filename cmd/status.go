package cmd

import "io"

// statusCommand is `gwsim status`: every Gateway API object's status.
func statusCommand() pipelineCommand {
	return pipelineCommand{
		use:     "status",
		short:   "Print the status of every Gateway API object, as kubectl would show it",
		formats: []format{formatYAML, formatJSON, formatText},
		render: func(w io.Writer, f format, out outcome) error {
			return renderStatus(w, f, out.Result.Objects)
		},
	}
}
