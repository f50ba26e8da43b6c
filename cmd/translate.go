package cmd

import (
	"io"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/translate/ir"
)

// translateCommand is `gwsim translate`, which is also what `gwsim` does
// without a command: routes, IR and status together.
func translateCommand() pipelineCommand {
	return pipelineCommand{
		use:     "translate",
		short:   "Print resolved routes, IR and status (the default)",
		formats: []format{formatText, formatYAML, formatJSON},
		render:  renderTranslate,
	}
}

// translateDoc is everything `gwsim translate` knows, as one document.
type translateDoc struct {
	Routes   []routeRow     `json:"routes"`
	IR       ir.IR          `json:"ir"`
	Status   []statusObject `json:"status"`
	Findings []diag.Finding `json:"findings"`
}

// renderTranslate prints three titled sections in text, or one document
// holding the same data (plus findings) in yaml and json.
func renderTranslate(w io.Writer, f format, out outcome) error {
	if f != formatText {
		status, err := statusObjects(w, out.Result.Objects, f)
		if err != nil {
			return err
		}
		fs := out.Findings
		if fs == nil {
			fs = []diag.Finding{}
		}
		return writeData(w, f, translateDoc{
			Routes:   routeRows(out.Result.Output.IR),
			IR:       out.Result.Output.IR,
			Status:   status,
			Findings: fs,
		})
	}
	// The three sections are one stream of pieces, rendered on every core
	// and written in order (writePieces): both cores stay busy to the end,
	// and a large run holds a few pieces of its output in memory, never a
	// whole section.
	model := out.Result.Output.IR
	routes, err := routesTablePieces(model, false, routesView{})
	if err != nil {
		return err
	}
	irs, err := yamlPieces(w, model, yamlRun)
	if err != nil {
		return err
	}
	status, err := statusPieces(w, out.Result.Objects)
	if err != nil {
		return err
	}
	return writePieces(w, concatPieces(
		textPiece("== Routes ==\n"), routes,
		textPiece("\n== IR ==\n"), irs,
		textPiece("\n== Status ==\n"), status,
	))
}
