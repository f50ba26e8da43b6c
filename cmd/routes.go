package cmd

import (
	"github.com/spf13/cobra"
)

// routesOptions are the flags of `gwsim routes`.
type routesOptions struct {
	pipelineFlags
}

func newRoutesCmd(streams Streams, env Env) *cobra.Command {
	o := &routesOptions{}
	c := &cobra.Command{
		Use:   "routes",
		Short: "Print the resolved routes table, one line per route in precedence order",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.run(c, streams, env)
		},
	}
	o.register(c, formatText, formatYAML, formatJSON)
	return c
}

func (o *routesOptions) run(c *cobra.Command, streams Streams, env Env) error {
	f, err := o.complete(c)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &o.pipelineFlags, streams, env)
	if err != nil {
		return err
	}
	if err := renderRoutes(streams.Out, f, out.Result.Output.IR); err != nil {
		return err
	}
	return finish(streams.Err, out, o.Verbose)
}
