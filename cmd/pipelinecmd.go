package cmd

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/gwsim/gwsim/translate"
)

// pipelineCommand declares a command that runs the shared pipeline and
// renders part of its outcome. The commands differ only in these fields, so
// they share one constructor and one run function.
type pipelineCommand struct {
	use, short, long string
	// formats lists the accepted -o values; the first is the default.
	formats []format
	render  func(w io.Writer, f format, out outcome) error
	// findingsAreOutput is set for check, which prints findings as its
	// output; the other commands summarise them on stderr.
	findingsAreOutput bool
	// options, when set, are the command's own flags (viewflags.go).
	options commandOptions
	// rendersOutputStatus is set for graph, which draws from the
	// whole-world Output's status; the others render status from the
	// objects as the store holds them (Result.Objects), and the Output's
	// copy is dropped before they render.
	rendersOutputStatus bool
}

// command builds the cobra command. root is non-nil for the root command,
// which runs translate itself and keeps its own Use, help and args.
func (p pipelineCommand) command(streams Streams, env Env, root *cobra.Command) *cobra.Command {
	flags := &pipelineFlags{}
	c := root
	if c == nil {
		c = &cobra.Command{Use: p.use, Short: p.short, Long: p.long, Args: noArgs}
	}
	c.RunE = func(c *cobra.Command, _ []string) error { return p.run(c, flags, streams, env) }
	flags.register(c, p.formats...)
	if p.options != nil {
		p.options.register(c.Flags())
	}
	return c
}

func (p pipelineCommand) run(c *cobra.Command, flags *pipelineFlags, streams Streams, env Env) error {
	f, err := flags.complete(c)
	if err != nil {
		return err
	}
	if p.options != nil {
		if err := p.options.complete(); err != nil {
			return err
		}
	}
	out, err := runPipeline(c.Context(), flags, streams, env)
	root := ""
	if p.findingsAreOutput {
		root = findRepoRoot(flags.Files, env.SourceRoot)
	}
	out.Root = root
	if p.findingsAreOutput {
		out.Columns = env.Columns
	}
	var ee *exitError
	if err != nil && p.findingsAreOutput && f != formatText && errors.As(err, &ee) && len(ee.inputErrors) > 0 {
		// Machine-readable check output must explain an exit 2 as well;
		// text output already went to stderr.
		w := newOutput(streams.Out, streams.fastMode())
		if rerr := p.render(w, f, outcome{Findings: ee.inputErrors, Threshold: flags.Findings.policy.Threshold, Root: root, Unread: true}); rerr != nil {
			return outputError(w, "output", rerr)
		}
	}
	if err != nil {
		return err
	}
	// No collection is forced before rendering: render allocates little
	// beside its output (about a tenth of the live heap at 10k routes),
	// so it fits under the heap goal the read stage left, and a forced
	// cycle cost a tenth of a second at 10k and seconds at 100k
	// (docs/performance.md). What the renderer does
	// not read need not stay live while it runs: the Output's status
	// repeats the statuses Result.Objects carry (about 47 MB at 100,000
	// routes).
	if !p.rendersOutputStatus {
		out.Result.Output.Status = translate.Status{}
	}
	w := newOutput(streams.Out, streams.fastMode())
	if err := p.render(w, f, out); err != nil {
		return outputError(w, "output", err)
	}
	markStage(c.Context(), "render")
	if err := flushOut(streams.Out); err != nil {
		return writeError("output", err)
	}
	if p.findingsAreOutput {
		return exitFor(out)
	}
	return finish(streams.Err, out, flags.Verbose)
}
