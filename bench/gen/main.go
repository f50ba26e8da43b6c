// Command gen writes a synthetic Gateway API manifest set for gwsim's
// benchmarks into a directory (see package synth for what it holds):
//
//	go run ./bench/gen -routes 10000 -o /tmp/gwsim-10k
//	gwsim -f /tmp/gwsim-10k
//
// The same flags always write the same bytes.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gwsim/gwsim/bench/synth"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	var opts synth.Options
	fs.IntVar(&opts.Routes, "routes", 1000, "number of routes (about 85% HTTPRoute, 10% GRPCRoute, 5% TLSRoute)")
	fs.IntVar(&opts.Gateways, "gateways", 10, "number of Gateways in namespace infra")
	fs.IntVar(&opts.Namespaces, "namespaces", 100, "number of team namespaces the routes are spread over")
	tls := fs.Bool("tls", true, "give every Gateway an HTTPS listener with a certificate Secret")
	fs.Uint64Var(&opts.Seed, "seed", 1, "seed of every random choice")
	dir := fs.String("o", "", "directory to write into (created if missing; required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: gen -routes N -o DIR")
	}
	opts.TLS = *tls
	set := synth.Generate(opts)
	if err := set.WriteDir(*dir); err != nil {
		return err
	}
	fmt.Printf("%s: %d files, %d objects, %d bytes\n", *dir, len(set.Files), set.Documents(), set.Size())
	return nil
}
