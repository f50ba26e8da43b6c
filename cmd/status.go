package cmd

import (
	"github.com/spf13/cobra"
)

// statusOptions are the flags of `gwsim status`.
type statusOptions struct {
	pipelineFlags
}

func newStatusCmd(streams Streams, env Env) *cobra.Command {
	o := &statusOptions{}
	c := &cobra.Command{
		Use:   "status",
		Short: "Print the status of every Gateway API object, as kubectl would show it",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.run(c, streams, env)
		},
	}
	o.register(c, formatYAML, formatJSON, formatText)
	return c
}

func (o *statusOptions) run(c *cobra.Command, streams Streams, env Env) error {
	f, err := o.complete(c)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &o.pipelineFlags, streams, env)
	if err != nil {
		return err
	}
	if err := renderStatus(streams.Out, f, out.Result.Objects); err != nil {
		return err
	}
	return finish(streams.Err, out, o.Verbose)
}
