package cmd

import (
	"io"

	"github.com/gwsim/gwsim/translate"
)

// graphCommand is `gwsim graph`: Gateways, listeners, routes and backends
// (with the policies and grants that bear on them) as a diagram.
func graphCommand() pipelineCommand {
	return pipelineCommand{
		use:     "graph",
		short:   "Draw Gateways, listeners, routes, backends, policies and grants as a Graphviz or Mermaid diagram",
		long:    graphLong,
		formats: []format{formatDot, formatMermaid, formatJSON, formatYAML},
		// BuildGraph reads the Output's status.
		rendersOutputStatus: true,
		render: func(w io.Writer, f format, out outcome) error {
			var in translate.Input
			for _, o := range out.Result.Objects {
				in.Add(o)
			}
			g := translate.BuildGraph(in, out.Result.Output)
			switch f {
			case formatDot:
				return renderDot(w, g)
			case formatMermaid:
				return renderMermaid(w, g)
			}
			return writeData(w, f, g)
		},
	}
}

const graphLong = `Draw what the controller resolved: each Gateway, its listeners (and
ListenerSets), the routes attached to them, the backends they forward to,
the BackendTLSPolicies applied to those backends and the ReferenceGrants
that let routes reach across namespaces. Unhealthy objects and edges are
drawn in red and labelled with their problem: a route kept off a listener,
a listener that is not accepted, a backend that does not resolve.

-o dot is Graphviz ('gwsim graph -f manifests/ | dot -Tsvg > graph.svg');
-o mermaid is a Mermaid flowchart, which GitHub renders inside a
` + "```mermaid" + ` block of a comment or Markdown file; -o json and -o yaml
give the nodes and edges as data.`
