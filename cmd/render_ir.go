package cmd

import (
	"bytes"
	"io"

	"github.com/gwsim/gwsim/translate/ir"
)

// renderIR prints the IR as data: YAML for text and yaml, JSON for json.
func renderIR(w io.Writer, f format, model ir.IR) error {
	if f == formatJSON || len(model.Gateways) == 0 {
		return writeData(w, f, model)
	}
	// Gateway by Gateway, a few at once on the cores there are, each
	// into a buffer of its own and written in order (writeOrdered). The
	// bytes are the same as encoding model at once, since a block sequence
	// under a top-level key is not indented: "gateways:" followed by each
	// Gateway encoded as a one-item sequence.
	if _, err := io.WriteString(w, "gateways:\n"); err != nil {
		return err
	}
	return writeOrdered(w, len(model.Gateways), func(i int, out *bytes.Buffer) error {
		return writeYAML(out, model.Gateways[i:i+1])
	})
}
