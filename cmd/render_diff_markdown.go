package cmd

import (
	"fmt"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/translate/diff"
	"github.com/gwsim/gwsim/translate/shadow"
)

// diffMarkdown renders a report as a pull-request comment: the one-line
// summary first, then one collapsible section per part that has changes,
// each a table. The request section is open, since it is what a reviewer
// most needs; the others are folded.
func diffMarkdown(r diff.Report) string {
	var b strings.Builder
	b.WriteString("### gwsim diff\n\n")
	if r.Empty() {
		b.WriteString("No change to routing, status or findings.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "**%s**\n", r.Summary.Text)
	if len(r.Requests) > 0 {
		rows := make([][]string, 0, len(r.Requests))
		for _, c := range r.Requests {
			before, after := c.Before.Summary, c.After.Summary
			if c.RouteChanged() {
				before += " via " + routeOrNone(c.Before)
				after += " via " + routeOrNone(c.After)
			}
			rows = append(rows, []string{code(c.Request), text(before), text(after)})
		}
		writeSection(&b, "Requests whose outcome changes", true, []string{"Request", "Before", "After"}, rows)
	}
	if len(r.Routes) > 0 {
		rows := make([][]string, 0, len(r.Routes))
		for _, c := range r.Routes {
			var details []string
			for _, d := range c.Details {
				details = append(details, d.Aspect+": "+detailString(c.Change, d))
			}
			what := strings.ToLower(string(c.Change))
			if s := changeSuffix(c); s != "" && c.Change != diff.Added {
				what = strings.TrimSpace(s)
			} else if s != "" {
				what += " " + strings.TrimSpace(s)
			}
			rows = append(rows, []string{text(placeString(c.Place)), text(shadow.OriginString(c.Route)), code(c.Match), text(what), text(strings.Join(details, "; "))})
		}
		writeSection(&b, "Routing table changes", false, []string{"Where", "Route", "Match", "Change", "Details"}, rows)
	}
	if len(r.Status) > 0 {
		rows := make([][]string, 0, len(r.Status))
		for _, c := range r.Status {
			rows = append(rows, []string{text(c.Object.String()), text(c.Scope), text(c.Item), text(orNone(c.Before)), text(orNone(c.After))})
		}
		writeSection(&b, "Status changes", false, []string{"Object", "Scope", "Condition", "Before", "After"}, rows)
	}
	writeFindingSection(&b, "Findings introduced", r.Findings.Introduced)
	writeFindingSection(&b, "Findings fixed", r.Findings.Fixed)
	if len(r.Unplaced) > 0 {
		rows := make([][]string, 0, len(r.Unplaced))
		for _, u := range r.Unplaced {
			rows = append(rows, []string{text(u.Object.String()), text(string(u.Change))})
		}
		writeSection(&b, "Changes diff cannot place", true, []string{"Object", "Change"}, rows)
	}
	return b.String()
}

func writeFindingSection(b *strings.Builder, title string, fs []diag.Finding) {
	if len(fs) == 0 {
		return
	}
	rows := make([][]string, 0, len(fs))
	for _, f := range fs {
		rows = append(rows, []string{f.Severity.String(), text(f.Object.String()), code(f.Field), text(f.Message), code(f.Source.String())})
	}
	writeSection(b, title, title == "Findings introduced", []string{"Severity", "Object", "Field", "Message", "Source"}, rows)
}

// writeSection writes a <details> block holding a table; its summary
// counts the rows. Cells come escaped (text or code).
func writeSection(b *strings.Builder, title string, open bool, header []string, rows [][]string) {
	attr := ""
	if open {
		attr = " open"
	}
	fmt.Fprintf(b, "\n<details%s><summary>%s (%d)</summary>\n\n", attr, title, len(rows))
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat(" --- |", len(header)) + "\n")
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\n</details>\n")
}

// text escapes s for a table cell: no line ending (CR included), cell
// boundary, markup or HTML gets through (safetext.Markdown).
func text(s string) string { return safetext.Markdown(s) }

// code renders s as a code span in a table cell (safetext.MarkdownCode).
func code(s string) string { return safetext.MarkdownCode(s) }
