package cmd

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gwsim/gwsim/translate/graph"
)

// smallGraph has a healthy edge, an unhealthy node and edge, a dashed
// grant edge, and names that need escaping in both formats.
func smallGraph() graph.Graph {
	return graph.Graph{
		Nodes: []graph.Node{
			{ID: "Backend/ns/svc:80", Kind: graph.KindBackend, Name: "ns/svc:80"},
			{ID: "Gateway/ns/gw", Kind: graph.KindGateway, Name: "ns/gw", Problem: `Accepted=False ("Invalid")`},
			{ID: "HTTPRoute/ns/r", Kind: "HTTPRoute", Name: "ns/r"},
			{ID: "Listener/ns/gw/http", Kind: graph.KindListener, Name: "http", Detail: "80/HTTP"},
			{ID: "ReferenceGrant/ns/g", Kind: graph.KindReferenceGrant, Name: "ns/g"},
		},
		Edges: []graph.Edge{
			{From: "Gateway/ns/gw", To: "Listener/ns/gw/http", Kind: graph.EdgeListener},
			{From: "Listener/ns/gw/http", To: "HTTPRoute/ns/r", Kind: graph.EdgeAttach, Problem: "Accepted=False (NotAllowedByListeners)"},
			{From: "ReferenceGrant/ns/g", To: "Backend/ns/svc:80", Kind: graph.EdgeGrant, Label: "permits HTTPRoute from a#b"},
		},
	}
}

func TestRenderDot(t *testing.T) {
	want := `digraph gwsim {
  rankdir=LR;
  node [shape=box, fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  "Backend/ns/svc:80" [label="Backend\nns/svc:80", shape=cylinder];
  "Gateway/ns/gw" [label="Gateway\nns/gw\nAccepted=False (\"Invalid\")", shape=box3d, color="#d73a49", fontcolor="#d73a49", penwidth=2];
  "HTTPRoute/ns/r" [label="HTTPRoute\nns/r"];
  "Listener/ns/gw/http" [label="listener http\n80/HTTP", shape=ellipse];
  "ReferenceGrant/ns/g" [label="ReferenceGrant\nns/g", shape=note];
  "Gateway/ns/gw" -> "Listener/ns/gw/http";
  "Listener/ns/gw/http" -> "HTTPRoute/ns/r" [label="Accepted=False (NotAllowedByListeners)", color="#d73a49", fontcolor="#d73a49", penwidth=2];
  "ReferenceGrant/ns/g" -> "Backend/ns/svc:80" [label="permits HTTPRoute from a#b", style=dashed];
}
`
	var buf bytes.Buffer
	if err := renderDot(&buf, smallGraph()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("dot (-want +got):\n%s", diff)
	}
}

func TestRenderMermaid(t *testing.T) {
	want := `flowchart LR
  n0[("Backend<br/>ns/svc:80")]
  n1["Gateway<br/>ns/gw<br/>Accepted=False (#quot;Invalid#quot;)"]
  n2["HTTPRoute<br/>ns/r"]
  n3(["listener http<br/>80/HTTP"])
  n4{{"ReferenceGrant<br/>ns/g"}}
  n1 --> n3
  n3 -->|"Accepted=False (NotAllowedByListeners)"| n2
  n4 -.->|"permits HTTPRoute from a#35;b"| n0
  classDef unhealthy stroke:#d73a49,stroke-width:2px,color:#d73a49
  class n1 unhealthy
  linkStyle 1 stroke:#d73a49,stroke-width:2px,color:#d73a49
`
	var buf bytes.Buffer
	if err := renderMermaid(&buf, smallGraph()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("mermaid (-want +got):\n%s", diff)
	}
}
