package cmd

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestRenderersGetOutputStatusOnlyWhenTheyReadIt checks that the
// whole-world Output's status, which repeats the statuses of
// Result.Objects, is dropped before a renderer that does not read it runs
// (about 47 MB of live heap through render at 100,000 routes), and kept
// for one that does (graph).
func TestRenderersGetOutputStatusOnlyWhenTheyReadIt(t *testing.T) {
	world := classYAML + "---\n" + gatewayYAML + "---\n" + routeYAML + "---\n" + serviceYAML
	for _, keep := range []bool{false, true} {
		routes := -1
		p := pipelineCommand{
			use: "probe", formats: []format{formatText}, rendersOutputStatus: keep,
			render: func(_ io.Writer, _ format, out outcome) error {
				routes = len(out.Result.Output.Status.Routes)
				return nil
			},
		}
		streams := Streams{In: strings.NewReader(world), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
		c := p.command(streams, Env{}, nil)
		c.SetArgs([]string{"-f", "-"})
		if err := c.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("rendersOutputStatus %v: %v (stderr %q)", keep, err, streams.Err)
		}
		if want := map[bool]int{false: 0, true: 1}[keep]; routes != want {
			t.Errorf("rendersOutputStatus %v: the renderer saw the status of %d routes, want %d", keep, routes, want)
		}
	}
}
