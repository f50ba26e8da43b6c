package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/translate/diff"
	"github.com/gwsim/gwsim/translate/shadow"
)

// renderDiff prints a diff report as text, JSON or a Markdown
// pull-request comment.
func renderDiff(w io.Writer, f format, r diff.Report) error {
	switch f {
	case formatJSON:
		return writeJSON(w, r)
	case formatMarkdown:
		return writeString(w, diffMarkdown(r))
	}
	return writeString(w, diffText(r))
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// diffText renders the summary, then each part that has something, one
// line per change, grouped under the place it is at.
func diffText(r diff.Report) string {
	var b strings.Builder
	if r.Empty() {
		b.WriteString("No change to routing, status or findings.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Summary: %s\n", r.Summary.Text)
	if len(r.Routes) > 0 {
		b.WriteString("\nRouting table changes:\n")
		var last shadow.Place
		for i, c := range r.Routes {
			if i == 0 || c.Place != last {
				fmt.Fprintf(&b, "  %s\n", placeString(c.Place))
				last = c.Place
			}
			fmt.Fprintf(&b, "    %s %s: %s%s\n", changeMark(c.Change), shadow.OriginString(c.Route), c.Match, changeSuffix(c))
			for _, d := range c.Details {
				fmt.Fprintf(&b, "        %s: %s\n", d.Aspect, detailString(c.Change, d))
			}
		}
	}
	if len(r.Requests) > 0 {
		b.WriteString("\nRequests whose outcome changes:\n")
		for _, c := range r.Requests {
			fmt.Fprintf(&b, "  %s: %s → %s\n", c.Request, c.Before.Summary, c.After.Summary)
			if c.RouteChanged() {
				fmt.Fprintf(&b, "      route: %s → %s\n", routeOrNone(c.Before), routeOrNone(c.After))
			}
		}
	}
	if len(r.Status) > 0 {
		b.WriteString("\nStatus changes:\n")
		for _, c := range r.Status {
			fmt.Fprintf(&b, "  %s: %s → %s\n", statusSubject(c), orNone(c.Before), orNone(c.After))
		}
	}
	writeFindingList(&b, "\nFindings introduced:\n", r.Findings.Introduced)
	writeFindingList(&b, "\nFindings fixed:\n", r.Findings.Fixed)
	if len(r.Unplaced) > 0 {
		b.WriteString("\nChanges diff cannot place (no Gateway of the input serves these objects, or gwsim does not model what changed):\n")
		for _, u := range r.Unplaced {
			fmt.Fprintf(&b, "  %s %s\n", changeMark(u.Change), safetext.Visible(u.Object.String()))
		}
	}
	return b.String()
}

func writeFindingList(b *strings.Builder, title string, fs []diag.Finding) {
	if len(fs) == 0 {
		return
	}
	b.WriteString(title)
	for _, f := range fs {
		fmt.Fprintf(b, "  %s\n", f.String())
	}
}

// placeString renders `Gateway infra/gw port 443 host shop.example.com
// (listener https)`; a TLS, TCP or UDP route's place has no host, and a
// route whose Gateway is not in the input is placed by its Gateway's name
// and its hostname alone.
func placeString(p shadow.Place) string {
	switch {
	case p.Port == 0 && p.Listener == "" && p.Gateway == "":
		return "no parentRefs (attaches nowhere) host " + p.Host
	case p.Port == 0 && p.Listener == "":
		return fmt.Sprintf("Gateway %s (not in the input: listeners unknown) host %s", p.Gateway, p.Host)
	}
	s := fmt.Sprintf("Gateway %s port %d", p.Gateway, p.Port)
	if p.Host != "" {
		s += " host " + p.Host
	}
	return s + " (listener " + p.Listener + ")"
}

// changeMark is the one-character sign of a change, as diff(1) and
// terraform plan use them.
func changeMark(c diff.Change) string {
	switch c {
	case diff.Added:
		return "+"
	case diff.Removed:
		return "-"
	case diff.Changed:
		return "~"
	}
	return "!"
}

// changeSuffix says what a shadowing change means; added, removed and
// changed matches are told by their mark and details.
func changeSuffix(c diff.RouteChange) string {
	switch {
	case c.Change == diff.Added && c.ShadowedBy != nil:
		return " (shadowed by " + shadow.OriginString(*c.ShadowedBy) + ": gets no traffic)"
	case c.Change == diff.Shadowed:
		return " now shadowed by " + shadow.OriginString(*c.ShadowedBy) + " (gets no traffic)"
	case c.Change == diff.Unshadowed:
		return " no longer shadowed by " + shadow.OriginString(*c.ShadowedBy)
	}
	return ""
}

// detailString renders an aspect's values: "before → after" for a changed
// match, the one value of an added or removed match.
func detailString(c diff.Change, d diff.Detail) string {
	switch c {
	case diff.Added:
		return d.After
	case diff.Removed:
		return d.Before
	}
	return orNone(d.Before) + " → " + orNone(d.After)
}

func routeOrNone(d diff.Destination) string {
	if d.Route == nil {
		return "(none)"
	}
	return shadow.OriginString(*d.Route)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// statusSubject renders `HTTPRoute shop/cart parent Gateway infra/gw: ResolvedRefs`.
func statusSubject(c diff.StatusChange) string {
	s := c.Object.String()
	if c.Scope != "" {
		s += " " + c.Scope
	}
	return s + ": " + c.Item
}
