package cmd

import (
	"github.com/spf13/cobra"
)

// checkOptions are the flags of `gwsim check`.
type checkOptions struct {
	pipelineFlags
}

const checkLong = `Print every finding about the manifests, sorted, then a summary: what the
loader noticed, what gwsim assumed, what the translation rejected and every
unhealthy status condition. Exits 1 on any error finding or unhealthy
condition, so it can gate CI. With -o github, findings become GitHub Actions
annotations on the line of YAML they are about.`

func newCheckCmd(streams Streams, env Env) *cobra.Command {
	o := &checkOptions{}
	c := &cobra.Command{
		Use:   "check",
		Short: "List findings and exit 1 on errors or unhealthy conditions",
		Long:  checkLong,
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.run(c, streams, env)
		},
	}
	o.register(c, formatText, formatJSON, formatGitHub)
	return c
}

func (o *checkOptions) run(c *cobra.Command, streams Streams, env Env) error {
	f, err := o.complete(c)
	if err != nil {
		return err
	}
	out, err := runPipeline(c.Context(), &o.pipelineFlags, streams, env)
	if err != nil {
		return err
	}
	if err := renderFindings(streams.Out, f, out.Findings); err != nil {
		return err
	}
	return exitFor(out)
}
