package cmd

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gwsim/gwsim/diag"
)

// checkOptions are check's own flags: which findings are printed, and the
// other reports the same run writes to files, so that a CI step checks
// once and gets annotations, SARIF and a summary that agree.
type checkOptions struct {
	OutputThreshold string
	OutputFiles     []string
	// Width is --width: -1 (the default) follows the terminal.
	Width int

	// threshold is --output-threshold parsed; nil means each format's
	// default (outputThresholdFor).
	threshold *diag.Severity
	files     []outputFile
}

// outputFile is one --output-file: a report format and where it goes.
type outputFile struct {
	format format
	path   string
}

func (o *checkOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.OutputThreshold, "output-threshold", "",
		"least severity of a finding that is printed: error|warning|info (default info, warning with -o github); what fails the run is --failure-threshold")
	fs.StringArrayVar(&o.OutputFiles, "output-file", nil,
		"also write the findings in another format to a file, as FORMAT=PATH (sarif=gwsim.sarif, markdown=summary.md); repeatable")
	fs.IntVar(&o.Width, "width", -1,
		"column at which text output wraps a finding's message onto continuation lines; 0 prints one line per finding (default: the terminal's width when stdout is a terminal, else 0)")
}

// width is the column text output wraps at: --width, else the width of
// the terminal stdout is (columns), else 0. Output that is not a
// terminal's (a pipe, a file, a CI log) keeps one line per finding: grep,
// editors' error formats and CI problem matchers read a finding from one
// line, and a log viewer or pager wraps long lines itself.
func (o *checkOptions) width(columns int) int {
	if o.Width >= 0 {
		return o.Width
	}
	return columns
}

func (o *checkOptions) complete() error {
	if o.Width < -1 {
		return usageErrorf("--width %d: want a number of columns, or 0 for one line per finding", o.Width)
	}
	if o.OutputThreshold != "" {
		s, err := diag.ParseSeverity(o.OutputThreshold)
		if err != nil {
			return usageErrorf("--output-threshold: %v", err)
		}
		o.threshold = &s
	}
	for _, v := range o.OutputFiles {
		name, path, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return usageErrorf("--output-file %q: want FORMAT=PATH, such as sarif=gwsim.sarif", v)
		}
		f, err := parseFormat(name, findingsFormats)
		if err != nil {
			return usageErrorf("--output-file %q: %v", v, err.(*exitError).err)
		}
		o.files = append(o.files, outputFile{format: f, path: path})
	}
	return nil
}

// lists reports whether main, the -o format, or one of the files is in
// format f.
func (o *checkOptions) lists(main, f format) bool {
	if main == f {
		return true
	}
	for _, of := range o.files {
		if of.format == f {
			return true
		}
	}
	return false
}

// outputThresholdFor is the least severity format f prints: the flag's,
// else info, but warning for -o github, where every info would become an
// annotation on the pull request (and GitHub shows at most 10 per step).
func (o *checkOptions) outputThresholdFor(f format) diag.Severity {
	if o.threshold != nil {
		return *o.threshold
	}
	if f == formatGitHub {
		return diag.Warning
	}
	return diag.Info
}

// shown is the report as format f prints it: the findings below the
// output threshold left out and counted.
func (o *checkOptions) shown(r findingsReport, f format) findingsReport {
	min := o.outputThresholdFor(f)
	if min == diag.Info {
		return r
	}
	var kept, hidden []diag.Finding
	for _, fd := range r.Findings {
		if fd.Severity >= min {
			kept = append(kept, fd)
		} else {
			hidden = append(hidden, fd)
		}
	}
	r.Findings, r.Hidden, r.OutputThreshold = kept, hidden, min
	return r
}

// writeFiles writes the report to each --output-file, with the encoders
// stdout (out) has. A file that cannot be created or written is an I/O
// error (exit 2), never a usage error.
func (o *checkOptions) writeFiles(out io.Writer, r findingsReport, render func(w io.Writer, f format, r findingsReport) error) error {
	r.Width = o.width(0) // a file is not a terminal
	for _, of := range o.files {
		if err := writeReportFile(out, of, o.shown(r, of.format), render); err != nil {
			return err
		}
	}
	return nil
}

func writeReportFile(out io.Writer, of outputFile, r findingsReport, render func(w io.Writer, f format, r findingsReport) error) error {
	file, err := os.Create(of.path)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("--output-file: %w", err)}
	}
	w := &outputWriter{w: file}
	w.yamlLibrary, w.jsonLibrary = libraryEncoders(out)
	err = render(w, of.format, r)
	if cerr := file.Close(); w.err == nil && cerr != nil {
		w.err = cerr
	}
	if err == nil && w.err != nil {
		err = w.err
	}
	if err != nil {
		return outputError(w, cmp.Or(of.path, "output"), err)
	}
	return nil
}
