package cmd

import "io"

// irCommand is `gwsim ir`: the data-plane IR, YAML by default.
func irCommand() pipelineCommand {
	return pipelineCommand{
		use:     "ir",
		short:   "Print the data-plane IR (YAML by default)",
		formats: []format{formatYAML, formatJSON, formatText},
		render: func(w io.Writer, f format, out outcome) error {
			return renderIR(w, f, out.Result.Output.IR)
		},
	}
}
