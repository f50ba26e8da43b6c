// Command gwsim runs a Gateway API controller offline over manifests and
// prints the resolved routes, the data-plane IR and per-object status.
package main

import (
	"os"

	"github.com/gwsim/gwsim/cmd"
)

func main() {
	os.Exit(cmd.Execute(os.Args[1:], cmd.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
