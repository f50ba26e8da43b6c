package cmd

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/gwsim/gwsim/internal/crash"
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
	// The sections are independent. Status renders into a buffer of its
	// own in the background while routes and IR are written straight out,
	// so that a large run renders on two cores without holding all of its
	// output (hundreds of megabytes at 100k routes) in memory.
	var status bytes.Buffer
	var statusErr error
	var wg sync.WaitGroup
	last := len(sections) - 1
	var bug crash.First
	wg.Go(func() { bug.Catch(func() { statusErr = sections[last].render(&status) }) })
	for i, s := range sections {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s ==\n", s.title)
		if i == last {
			wg.Wait()
			bug.Raise()
			if statusErr != nil {
				return statusErr
			}
			if _, err := status.WriteTo(w); err != nil {
				return err
			}
			continue
		}
		if err := s.render(w); err != nil {
			wg.Wait()
			return err
		}
	}
	return nil
}
