package cmd

import "io"

// routesCommand is `gwsim routes`: the resolved routes table.
func routesCommand() pipelineCommand {
	view := &routesView{}
	return pipelineCommand{
		use:     "routes",
		short:   "Print the resolved routes table, one line per route in precedence order",
		long:    routesLong,
		formats: []format{formatText, formatWide, formatYAML, formatJSON},
		options: view,
		render: func(w io.Writer, f format, out outcome) error {
			return renderRoutes(w, f, out.Result.Output.IR, *view)
		},
	}
}

const routesLong = `Print the resolved routes: one line per route match, in the order a
conformant gateway tries them within each virtual host.

The default table keeps to 120 columns: GATEWAY, PORT/PROTO, HOST, MATCH,
ROUTE (the object and rule a line comes from) and BACKENDS; cells too long
to fit are cut with "…". -o wide adds LISTENER and FILTERS and cuts nothing.
--gateway, --host and --route select lines in every output format.`
