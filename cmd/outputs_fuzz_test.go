package cmd

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/fastpath/yamlout"
	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/internal/textwrap"
)

// FuzzOutputs writes findings whose names, fields, messages and file
// names come from the fuzzer in every format check writes, a table and a
// YAML document holding them, and checks each output with its real parser
// and the injection rules: JSON and SARIF decode (and SARIF passes
// GitHub's ingestion rules), JUnit is XML, YAML reads back to the same
// strings, each finding is one line of text (or, wrapped, a first line and
// continuation lines that unwrap to it) and one workflow command, no line
// of text reads as a workflow command,
// each Markdown table row one line with its cells, and no output holds a
// raw control character outside JSON and YAML escapes.
func FuzzOutputs(f *testing.F) {
	seeds := []string{"web", "api\n::stop-commands::x\n::error title=Forged::fake", "pay\r### Approved\r![ok](https://e.invalid/a.png)",
		"a\u0001b", "del\u007f c1\u0085\u009f", "<b>x</b>|y`z`", "\xff\xfe", "\u202eevil\u2028", "]]>", "%0A::", "a:b,c", "../../etc/passwd", "-"}
	for i, s := range seeds {
		f.Add(s, seeds[(i+1)%len(seeds)], seeds[(i+2)%len(seeds)])
	}
	// Words that a wrapped line could start with, and file names that
	// start the line.
	f.Add("ok ::error title=F::x", "see ::warning::y and ##[error]z", "::error::f.yaml")
	f.Add(" ", " ", " \t##[error]x")
	f.Fuzz(func(t *testing.T, name, message, file string) {
		fs := diag.WithCodes([]diag.Finding{
			{Severity: diag.Error, Object: diag.ObjectRef{Kind: "HTTPRoute", Namespace: "shop", Name: name}, Source: diag.Source{File: file, Line: 3},
				Field: "spec.rules[0].backendRefs[0]", Reason: "BackendNotFound", Message: message},
			{Severity: diag.Warning, Object: diag.ObjectRef{Kind: "Gateway", Namespace: name, Name: "gw"}, Source: diag.Source{File: "input/" + name + ".yaml", Line: 1},
				Reason: diag.ReasonUnknownField, Message: "unknown field " + message},
			{Severity: diag.Info, Reason: diag.ReasonAssumed, Message: message},
		})
		r := findingsReport{Findings: fs, Suppressed: []diag.Suppressed{{Finding: fs[0], By: "annotation " + name, InSource: true}},
			Objects: []checkedObject{{Ref: fs[0].Object, Source: fs[0].Source}}}
		for _, format := range findingsFormats {
			var buf bytes.Buffer
			if err := renderFindings(&buf, format, r); err != nil {
				t.Fatalf("-o %s: %v", format, err)
			}
			if err := checkOutput(format, buf.String(), len(fs)); err != nil {
				t.Errorf("-o %s: %v\n%q", format, err, buf.String())
			}
		}
		checkWrappedText(t, r)
		checkTable(t, []string{name, message, file})
		checkYAML(t, map[string]any{"name": name, name: []string{message, file}})
	})
}

// githubLine is a line of -o github: an annotation or the summary.
var githubLine = regexp.MustCompile(`^(::(error|warning|notice)( [^:]*)?::[^\r\n]*|\d+ errors?, .*)$`)

func checkOutput(f format, out string, n int) error {
	switch f {
	case formatJSON, formatGitLab:
		if !json.Valid([]byte(out)) {
			return errors.New("not JSON")
		}
		return nil
	case formatSARIF:
		if bad := githubIngestion([]byte(out)); len(bad) > 0 {
			return errors.New(strings.Join(bad, "; "))
		}
		return nil
	case formatJUnit:
		d := xml.NewDecoder(strings.NewReader(out))
		for {
			if _, err := d.Token(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	case formatMarkdown:
		return checkMarkdown(out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if l != safetext.Visible(l) {
			return errors.New("a raw control character")
		}
		if f == formatGitHub && !githubLine.MatchString(l) {
			return errors.New("a line that is not an annotation: " + l)
		}
	}
	if f == formatText && len(lines) != n+1 {
		return errors.New("not one line per finding")
	}
	if f == formatText {
		return checkLineStarts(lines)
	}
	return nil
}

// checkLineStarts checks that no line of text output reads as a workflow
// command once the runner has trimmed its leading blanks.
func checkLineStarts(lines []string) error {
	for _, l := range lines {
		if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "::") || strings.HasPrefix(t, "##[") {
			return errors.New("a line a runner reads as a workflow command: " + l)
		}
	}
	return nil
}

// checkWrappedText renders r as text wrapped at a narrow width: every
// finding is a first line and continuation lines that start with the
// gutter, which unwrap to the finding's one line, and no line reads as a
// workflow command.
func checkWrappedText(t *testing.T, r findingsReport) {
	var flat, wrapped bytes.Buffer
	if err := renderFindings(&flat, formatText, r); err != nil {
		t.Fatal(err)
	}
	r.Width = 24
	if err := renderFindings(&wrapped, formatText, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(wrapped.String(), "\n"), "\n")
	var findings []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, textwrap.Gutter); ok && len(findings) > 0 {
			findings[len(findings)-1] += " " + rest
			continue
		}
		findings = append(findings, l)
	}
	if got := strings.Join(findings, "\n") + "\n"; got != flat.String() {
		t.Errorf("-o text at width 24 unwraps to\n%q\nwant\n%q", got, flat.String())
	}
	if err := checkLineStarts(lines); err != nil {
		t.Errorf("-o text at width 24: %v\n%q", err, wrapped.String())
	}
}

// checkMarkdown checks the CommonMark lines of a summary: no raw control
// character or line ending inside a line, no HTML, every table row the
// header's number of cells.
func checkMarkdown(out string) error {
	cells := -1
	for _, l := range strings.Split(out, "\n") {
		if l != safetext.Visible(l) {
			return errors.New("a raw control character")
		}
		if !strings.HasPrefix(l, "|") {
			cells = -1
			continue
		}
		n := len(regexp.MustCompile(`(^|[^\\])(\\\\)*\|`).FindAllString(l, -1))
		if cells >= 0 && n != cells {
			return errors.New("a table row with other cells than its header: " + l)
		}
		cells = n
		if strings.ContainsAny(strings.ReplaceAll(l, "&lt;", ""), "<>") && !strings.Contains(l, "`") {
			return errors.New("HTML in a table row: " + l)
		}
	}
	return nil
}

// checkTable lays out cells and checks that the row is one line.
func checkTable(t *testing.T, cells []string) {
	var buf bytes.Buffer
	tb := table{columns: make([]column, len(cells)), rows: [][]string{cells}, noHeaders: true, maxWidth: tableWidth}
	for i := range tb.columns {
		tb.columns[i].elide = cutEnd
	}
	if err := tb.write(&buf); err != nil {
		t.Fatal(err)
	}
	if l := strings.TrimSuffix(buf.String(), "\n"); strings.Contains(l, "\n") || l != safetext.Visible(l) {
		t.Errorf("table row %q is not one visible line: %q", cells, buf.String())
	}
}

// checkYAML writes v with yamlout and reads it back with sigs.k8s.io/yaml:
// the same strings, whatever characters they hold (invalid UTF-8 becomes
// U+FFFD, as encoding/json makes it).
func checkYAML(t *testing.T, v map[string]any) {
	b, err := yamlout.Marshal(v)
	if err != nil {
		t.Fatalf("yamlout: %v", err)
	}
	var back map[string]any
	if err := yaml.Unmarshal(b, &back); err != nil {
		t.Fatalf("YAML output does not parse: %v\n%s", err, b)
	}
	// Both sides through encoding/json's decoder, so that invalid UTF-8
	// reads as U+FFFD on both.
	var norm any
	j, _ := json.Marshal(v)
	if err := json.Unmarshal(j, &norm); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(norm)
	got, _ := json.Marshal(back)
	if !bytes.Equal(want, got) || !utf8.Valid(b) {
		t.Errorf("YAML round trip changed the value:\n%s\n%s", want, got)
	}
}
