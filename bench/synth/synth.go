// Package synth writes synthetic but valid Gateway API manifest sets of any
// size, for gwsim's benchmarks. A set is what a large platform
// repository holds: a few shared Gateways in "infra", and many teams'
// routes, each with its own Service and EndpointSlice.
//
// The same Options always give the same bytes: every choice comes from a
// PRNG seeded with Options.Seed, and nothing reads the clock. Every object
// is meant to be accepted: routes attach, backends resolve, cross-namespace
// backends have a ReferenceGrant, TLS Secrets hold a real key pair. The
// package's test checks that through gwsim's own pipeline, so a benchmark
// never measures an error path by accident.
package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Options size a set. Zero values take the defaults noted on each field.
type Options struct {
	// Routes is the total number of routes: about 85% HTTPRoutes, 10%
	// GRPCRoutes and 5% TLSRoutes.
	Routes int
	// Gateways is the number of shared Gateways in "infra" (default 10).
	Gateways int
	// Namespaces is the number of team namespaces the routes are spread
	// over, round-robin (default 100).
	Namespaces int
	// TLS adds to every Gateway an HTTPS listener that terminates TLS with a
	// Secret of its own. Every Gateway has a TLS passthrough listener for
	// the TLSRoutes either way.
	TLS bool
	// Seed drives every random choice (default 1).
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Gateways <= 0 {
		o.Gateways = 10
	}
	if o.Namespaces <= 0 {
		o.Namespaces = 100
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// File is one generated manifest file.
type File struct {
	Name string
	Data []byte
}

// Set is a generated manifest set: one file for the shared infrastructure
// and one per team namespace, in the order they were written.
type Set struct {
	Files []File
	// Counts is the number of objects per kind.
	Counts map[string]int
}

// Size is the total number of bytes of YAML.
func (s Set) Size() int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Data)
	}
	return n
}

// Documents is the total number of objects.
func (s Set) Documents() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// WriteDir writes every file into dir, which it creates if needed.
func (s Set) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range s.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Generate builds the set opts describes.
func Generate(opts Options) Set {
	opts = opts.withDefaults()
	p := newPlan(opts)
	w := &writer{counts: map[string]int{}}
	set := Set{Counts: w.counts}
	set.Files = append(set.Files, File{Name: "00-infra.yaml", Data: w.infra(opts)})
	for ns := range opts.Namespaces {
		set.Files = append(set.Files, File{Name: namespaceName(ns) + ".yaml", Data: w.team(p, ns)})
	}
	return set
}

// writer appends YAML documents and counts them by kind.
type writer struct {
	buf    bytes.Buffer
	counts map[string]int
}

// doc starts a document of kind; the caller writes the rest of it.
func (w *writer) doc(apiVersion, kind string) {
	w.counts[kind]++
	fmt.Fprintf(&w.buf, "---\napiVersion: %s\nkind: %s\n", apiVersion, kind)
}

// take returns what was written since the last take.
func (w *writer) take() []byte {
	out := bytes.Clone(w.buf.Bytes())
	w.buf.Reset()
	return out
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func namespaceName(ns int) string { return fmt.Sprintf("team-%03d", ns) }

func gatewayName(g int) string { return fmt.Sprintf("gw-%02d", g) }
