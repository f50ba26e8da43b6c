package cmd

import (
	"io"

	"github.com/spf13/cobra"
)

const completionLong = `Print a completion script for your shell; load it to complete gwsim's
commands, flags and -o values.

  bash:        source <(gwsim completion bash)
  zsh:         gwsim completion zsh > "${fpath[1]}/_gwsim"
  fish:        gwsim completion fish > ~/.config/fish/completions/gwsim.fish
  powershell:  gwsim completion powershell | Out-String | Invoke-Expression`

// enableCompletion turns on cobra's completion command (bash, zsh, fish,
// powershell) and completes every command's -o with the formats it takes.
// The scripts go to the stream given: cobra binds the completion commands
// to the root's output when it builds them.
func enableCompletion(root *cobra.Command, out io.Writer) {
	root.SetOut(out)
	root.CompletionOptions.DisableDefaultCmd = false
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Long = completionLong
		// Without a shell, or with one it does not know, cobra would print
		// help and exit 0; a script that loads the output must fail.
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("name a shell: bash, zsh, fish or powershell")
			}
			return usageErrorf("unknown shell %q (valid: bash, zsh, fish, powershell)", args[0])
		}
	}
}

// registerFormatCompletion completes -o/--output with valid.
func registerFormatCompletion(c *cobra.Command, valid []format) {
	names := make([]string, len(valid))
	for i, f := range valid {
		names[i] = string(f)
	}
	// The only error is a flag that does not exist, a bug caught by tests.
	if err := c.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp)); err != nil {
		panic("bug: " + err.Error())
	}
}
