package cmd

import (
	"fmt"
	"io"

	"github.com/gwsim/gwsim/translate/diag"
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
		status, err := statusObjects(out.Result.Objects, f)
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
	sections := []struct {
		title  string
		render func(io.Writer) error
	}{
		{"Routes", func(w io.Writer) error { return renderRoutes(w, formatText, out.Result.Output.IR, routesView{}) }},
		{"IR", func(w io.Writer) error { return renderIR(w, formatYAML, out.Result.Output.IR) }},
		{"Status", func(w io.Writer) error { return renderStatus(w, formatYAML, out.Result.Objects) }},
	}
	// Each section is written straight to w, in order, and renders on
	// every core within itself (writeOrdered), so that a large run holds a
	// few pieces of its output in memory, never a whole section.
	for i, s := range sections {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "== %s ==\n", s.title); err != nil {
			return err
		}
		if err := s.render(w); err != nil {
			return err
		}
	}
	return nil
}
