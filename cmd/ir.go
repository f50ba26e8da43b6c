package cmd

import (
	"github.com/spf13/cobra"
)

// irOptions are the flags of `gwsim ir`.
type irOptions struct {
	pipelineFlags
}

func newIRCmd(streams Streams, env Env) *cobra.Command {
	o := &irOptions{}
	c := &cobra.Command{
		Use:   "ir",
		Short: "Print the data-plane IR (YAML by default)",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.run(c, streams, env)
		},
	}
	o.register(c, formatYAML, formatJSON, formatText)
	return c
}

func (o *irOptions) run(c *cobra.Command, streams Streams, env Env) error {
	f, err := o.complete(c)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &o.pipelineFlags, streams, env)
	if err != nil {
		return err
	}
	if err := renderIR(streams.Out, f, out.Result.Output.IR); err != nil {
		return err
	}
	return finish(streams.Err, out, o.Verbose)
}
