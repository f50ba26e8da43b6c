package cmd

import "io"

// routesCommand is `gwsim routes`: the resolved routes table.
func routesCommand() pipelineCommand {
	return pipelineCommand{
		use:     "routes",
		short:   "Print the resolved routes table, one line per route in precedence order",
		formats: []format{formatText, formatYAML, formatJSON},
		render: func(w io.Writer, f format, out outcome) error {
			return renderRoutes(w, f, out.Result.Output.IR)
		},
	}
}
