package cmd

import (
	"io"

	"github.com/gwsim/gwsim/translate/ir"
)

// renderIR prints the IR as data: YAML for text and yaml, JSON for json.
// The YAML is cut into pieces encoded on every core (writeYAML): clusters
// and virtual hosts in runs of yamlRun.
func renderIR(w io.Writer, f format, model ir.IR) error {
	return writeData(w, f, model)
}
