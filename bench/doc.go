// Package bench holds gwsim's stage benchmarks: each stage of the
// pipeline on its own (decode, store load, reconcile to fixpoint, reading
// the world back, translate, the whole offline run) and the bare-decode
// floor they are compared against, at the sizes synth.Sizes returns, each
// reporting ns/route so that a stage that grows faster than linear shows
// between sizes. The renderers and the whole CLI run are benchmarked in
// package cmd (cmd/bench_test.go), whose renderers are unexported.
//
// The package has no code outside its tests. Its subpackages are the
// harness: synth and gen write the synthetic sets, baseline is the bare
// decode and decode runs it as a binary, and run.sh times that binary and
// gwsim's side by side (TestRunScript runs it on a tiny set, so that it
// keeps working). `make bench` runs the benchmarks, `make bench-binary` the
// script, and docs/performance.md records what they measured.
package bench
