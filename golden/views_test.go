package golden

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// views are the renderings a case may record besides every case's
// outputs, by the name case.yaml lists them under `views:`. They are
// opt-in: each is a view of the same results, so a few cases that show
// their features (an unhealthy route, a ListenerSet, a policy, a grant)
// cover them.
var views = map[string]command{
	"routes-wide":   {File: "routes-wide.txt", Args: []string{"routes", "-o", "wide"}},
	"status-table":  {File: "status-table.txt", Args: []string{"status", "-o", "table"}},
	"graph-dot":     {File: "graph.dot", Args: []string{"graph", "-o", "dot"}},
	"graph-mermaid": {File: "graph.mmd", Args: []string{"graph", "-o", "mermaid"}, Comment: "%% "},
	"graph-yaml":    {File: "graph.yaml", Args: []string{"graph", "-o", "yaml"}},
}

// viewCommands lists the commands of the case's views, in case.yaml order.
func (c goldenCase) viewCommands() []command {
	out := make([]command, 0, len(c.Spec.Views))
	for _, v := range c.Spec.Views {
		out = append(out, views[v])
	}
	return out
}

// validateViews checks that every view is known and listed once.
func (c goldenCase) validateViews() []error {
	var errs []error
	for i, v := range c.Spec.Views {
		if _, ok := views[v]; !ok || slices.Index(c.Spec.Views, v) != i {
			errs = append(errs, fmt.Errorf("case.yaml: views[%d]: %q must be listed once and be one of routes-wide, status-table, graph-dot, graph-mermaid, graph-yaml", i, v))
		}
	}
	return errs
}

// TestDotGoldensRender runs Graphviz over every graph.dot golden file, when
// Graphviz is installed: a diagram that dot rejects is no diagram. (The
// Mermaid goldens were checked with mermaid's own parser when the renderer
// was written; it needs a JavaScript runtime, so it is not a test.)
func TestDotGoldensRender(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz (dot) is not installed")
	}
	files, err := filepath.Glob("*/graph.dot")
	if err != nil || len(files) == 0 {
		t.Fatalf("no graph.dot goldens: %v", err)
	}
	for _, f := range files {
		out, err := exec.Command(dot, "-Tsvg", "-o", os.DevNull, f).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("dot %s: %v\n%s", f, err, out)
		}
	}
}
