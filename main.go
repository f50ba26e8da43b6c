// Command gwsim runs a Gateway API controller offline over manifests and
// prints the resolved routes, the data-plane IR and per-object status.
package main

import (
	"os"

	"github.com/gwsim/gwsim/cmd"
	"github.com/gwsim/gwsim/internal/gctune"
)

// heapCeiling is the heap gwsim lets grow before collecting it at the
// usual pace (package gctune): a mid-sized run then collects about a third
// as often, for a peak memory that stays within the project's budget; from
// about 100 MB of live heap on, it changes nothing. docs/performance.md
// has the measurements.
const heapCeiling = 192 << 20

// softMemoryLimit holds large runs' memory down (package gctune): while a
// very large world is translated most of the heap is live, and at the
// default pace the heap would grow to about twice that; the soft limit
// keeps peak memory within the project's budget at no measurable CPU
// cost. docs/performance.md has the measurements.
const softMemoryLimit = 1408 << 20

func main() {
	gctune.Start(gctune.Policy{Ceiling: heapCeiling, Limit: softMemoryLimit})
	os.Exit(cmd.Execute(os.Args[1:], cmd.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
