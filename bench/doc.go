// Package bench holds gwsim's stage benchmarks (issue 7): each stage of the
// pipeline on its own (decode, store load, reconcile to fixpoint, reading
// the world back, translate, the whole offline run) and the bare-decode
// floor they are compared against, at the sizes synth.Sizes returns. The
// renderers and the whole CLI run are benchmarked in package cmd
// (cmd/bench_test.go), whose renderers are unexported. The package has no
// code outside its tests; `make bench` runs them and docs/performance.md
// records what they measured.
package bench
