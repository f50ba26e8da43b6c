package cmd

import (
	"io"

	"github.com/gwsim/gwsim/translate/ir"
)

// renderIR prints the IR as data: YAML for text and yaml, JSON for json.
func renderIR(w io.Writer, f format, model ir.IR) error {
	return writeData(w, f, model)
}
