package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/translate/graph"
)

// problemColor marks unhealthy nodes and edges in both diagram formats.
const problemColor = "#d73a49"

// nodeLines is what a node's box says: its kind (a listener's name), its
// name (a listener's port and hostname) and, when unhealthy, its problem.
func nodeLines(n graph.Node) []string {
	lines := []string{n.Kind, n.Name}
	if n.Kind == graph.KindListener {
		lines = []string{"listener " + n.Name, n.Detail}
	}
	if n.Problem != "" {
		lines = append(lines, n.Problem)
	}
	return lines
}

// edgeText is what an edge says: its problem, else its label.
func edgeText(e graph.Edge) string {
	if e.Problem != "" {
		return e.Problem
	}
	return e.Label
}

// dashed edges are the ones that do not carry traffic: a policy applying,
// a grant permitting.
func dashed(e graph.Edge) bool { return e.Kind == graph.EdgePolicy || e.Kind == graph.EdgeGrant }

// dotShapes gives each node kind a Graphviz shape; routes are boxes.
var dotShapes = map[string]string{
	graph.KindGateway:          "box3d",
	graph.KindListener:         "ellipse",
	graph.KindListenerSet:      "folder",
	graph.KindBackend:          "cylinder",
	graph.KindBackendTLSPolicy: "note",
	graph.KindReferenceGrant:   "note",
}

// renderDot writes g as a Graphviz digraph, left to right.
func renderDot(w io.Writer, g graph.Graph) error {
	var b strings.Builder
	b.WriteString("digraph gwsim {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	for _, n := range g.Nodes {
		attrs := []string{"label=" + dotQuote(strings.Join(nodeLines(n), "\n"))}
		if s, ok := dotShapes[n.Kind]; ok {
			attrs = append(attrs, "shape="+s)
		}
		if n.Problem != "" {
			attrs = append(attrs, "color="+dotQuote(problemColor), "fontcolor="+dotQuote(problemColor), "penwidth=2")
		}
		fmt.Fprintf(&b, "  %s [%s];\n", dotQuote(n.ID), strings.Join(attrs, ", "))
	}
	for _, e := range g.Edges {
		var attrs []string
		if t := edgeText(e); t != "" {
			attrs = append(attrs, "label="+dotQuote(t))
		}
		if dashed(e) {
			attrs = append(attrs, "style=dashed")
		}
		if e.Problem != "" {
			attrs = append(attrs, "color="+dotQuote(problemColor), "fontcolor="+dotQuote(problemColor), "penwidth=2")
		}
		fmt.Fprintf(&b, "  %s -> %s", dotQuote(e.From), dotQuote(e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotQuote makes s a DOT string: quoted, with quotes and backslashes
// escaped and newlines as \n (centred lines).
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// mermaidShapes gives each node kind a Mermaid shape: opening and closing.
var mermaidShapes = map[string][2]string{
	graph.KindListener:         {"([", "])"},
	graph.KindBackend:          {"[(", ")]"},
	graph.KindBackendTLSPolicy: {"{{", "}}"},
	graph.KindReferenceGrant:   {"{{", "}}"},
}

// renderMermaid writes g as a Mermaid flowchart, left to right. Nodes get
// short ids (n0, n1...) in node order; unhealthy nodes take the class
// "unhealthy" and unhealthy edges a red linkStyle, by their index.
func renderMermaid(w io.Writer, g graph.Graph) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := make(map[string]string, len(g.Nodes))
	var unhealthy []string
	for i, n := range g.Nodes {
		id := fmt.Sprintf("n%d", i)
		ids[n.ID] = id
		shape, ok := mermaidShapes[n.Kind]
		if !ok {
			shape = [2]string{"[", "]"}
		}
		lines := nodeLines(n)
		for j := range lines {
			lines[j] = mermaidText(lines[j])
		}
		fmt.Fprintf(&b, "  %s%s\"%s\"%s\n", id, shape[0], strings.Join(lines, "<br/>"), shape[1])
		if n.Problem != "" {
			unhealthy = append(unhealthy, id)
		}
	}
	var red []string
	for i, e := range g.Edges {
		arrow := "-->"
		if dashed(e) {
			arrow = "-.->"
		}
		if t := edgeText(e); t != "" {
			arrow += "|\"" + mermaidText(t) + "\"|"
		}
		fmt.Fprintf(&b, "  %s %s %s\n", ids[e.From], arrow, ids[e.To])
		if e.Problem != "" {
			red = append(red, fmt.Sprint(i))
		}
	}
	if len(unhealthy) > 0 {
		fmt.Fprintf(&b, "  classDef unhealthy stroke:%s,stroke-width:2px,color:%s\n  class %s unhealthy\n",
			problemColor, problemColor, strings.Join(unhealthy, ","))
	}
	if len(red) > 0 {
		fmt.Fprintf(&b, "  linkStyle %s stroke:%s,stroke-width:2px,color:%s\n", strings.Join(red, ","), problemColor, problemColor)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidText escapes what Mermaid would read as markup inside a quoted
// label: quotes, and '#' and angle brackets, which start entity codes
// and HTML.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "#", "#35;", "<", "#lt;", ">", "#gt;").Replace(s)
}
