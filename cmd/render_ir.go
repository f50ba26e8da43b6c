package cmd

import (
	"bytes"
	"fmt"
	"io"

	"github.com/gwsim/gwsim/cmd/yamlenc"
	"github.com/gwsim/gwsim/translate/ir"
)

// irRun is how many items of a long IR list (clusters, virtual hosts)
// make one piece of the YAML: small enough that both cores stay busy to
// the end of a run of 10 Gateways, large enough that a piece costs far
// more than handing it to a core.
const irRun = 64

// renderIR prints the IR as data: YAML for text and yaml, JSON for json.
func renderIR(w io.Writer, f format, model ir.IR) error {
	if f == formatJSON {
		return writeData(w, f, model)
	}
	p, err := irPieces(model)
	if err != nil {
		return err
	}
	return writePieces(w, p)
}

// irPieces is the IR's YAML document cut into pieces that encode on every
// core (yamlenc.Split): the bytes are those of encoding model at once.
func irPieces(model ir.IR) (pieces, error) {
	s, err := yamlenc.NewEncoder(nil).Split(model, irRun)
	if err != nil {
		return pieces{}, fmt.Errorf("encoding yaml: %w", err)
	}
	return pieces{
		n: s.Len(),
		render: func(i int, out *bytes.Buffer) error {
			if err := s.EncodePart(i, out); err != nil {
				return fmt.Errorf("encoding yaml: %w", err)
			}
			return nil
		},
		write: s.WritePart,
	}, nil
}
