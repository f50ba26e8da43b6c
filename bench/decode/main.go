// Command decode is the bare-decode floor as a binary (see package
// baseline), so that bench/run.sh can time it as it times gwsim: same
// files, same process start, wall time, CPU time and peak RSS side by side.
//
//	go run ./bench/gen -routes 10000 -o /tmp/gwsim-10k
//	go run ./bench/decode /tmp/gwsim-10k
//
// It prints the number of objects decoded, which is the number gwsim loads
// from a generated set.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/gwsim/gwsim/bench/baseline"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "decode:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "number of decoding goroutines (gwsim uses GOMAXPROCS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: decode [-workers N] DIR")
	}
	objs, err := baseline.Decode(fs.Arg(0), *workers)
	if err != nil {
		return err
	}
	// objs is used after the whole decode, so that every object stays alive
	// until the end, as gwsim's do.
	_, err = fmt.Fprintf(stdout, "%d objects\n", len(objs))
	return err
}
