// Package cmd is gwsim's command line: it parses flags into option structs,
// runs the one shared pipeline (load, assume what is missing, run the offline
// controller to a fixpoint) and hands plain values to renderers, which print
// and never compute. Every command exits 0 when the manifests are clean, 1
// when they have error findings or unhealthy status conditions, 2 on a
// usage or input error, whatever the output format, and 3 on a bug of
// gwsim's own (a panic on any goroutine, a store or controller failure).
package cmd

import (
	"github.com/spf13/cobra"
)

const rootLong = `gwsim runs a Gateway API controller offline over your manifests and shows
what a conformant gateway would do with them: the resolved routes, the
data-plane IR and the status every object would get.

Without a command, gwsim prints all three (same as 'gwsim translate').

Exit codes (for every command and output format):
  0  no error findings and every status condition healthy
  1  error findings or unhealthy conditions (see 'gwsim check')
  2  usage error, unreadable or unparsable input, input over a limit
  3  a bug in gwsim (reported with its version; please report it)`

const rootExample = `  gwsim -f manifests/
  gwsim routes -f gateway.yaml -f routes.yaml
  kustomize build . | gwsim check -f - -o github`

// newRootCmd builds the command tree. Nothing here is shared between calls,
// so tests can run the CLI in parallel.
func newRootCmd(streams Streams, env Env, prof *profiler) *cobra.Command {
	root := &cobra.Command{
		Use:                        "gwsim",
		Short:                      "Simulate a Gateway API controller offline",
		Long:                       rootLong,
		Example:                    rootExample,
		Version:                    versionString(),
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
		Args:                       rootArgs,
	}
	translateCommand().command(streams, env, root)
	prof.register(root)
	if streams.fastpath != nil {
		streams.fastpath.register(root)
	}
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if streams.fastpath != nil {
			if err := streams.fastpath.parse(); err != nil {
				return err
			}
		}
		return prof.start(c)
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(
		translateCommand().command(streams, env, nil),
		routesCommand().command(streams, env, nil),
		irCommand().command(streams, env, nil),
		statusCommand().command(streams, env, nil),
		checkCommand().command(streams, env, nil),
		graphCommand().command(streams, env, nil),
		explainCommand(streams, env),
		testCommand(streams, env),
		diffCommand(streams, env),
		newVersionCmd(streams),
	)
	enableCompletion(root, streams.Out)
	return root
}
