// Package golden holds gwsim's end-to-end scenarios: one folder per case,
// each with a case.yaml (what the case shows and the extra CLI arguments it
// needs), its input manifests under input/, and one file per command with
// the exact output gwsim prints (routes.txt, ir.yaml, status.yaml, check.txt).
// A case may also record the views a person reads, by listing them under
// views: in case.yaml (routes-wide.txt, status-table.txt, graph.dot,
// graph.mmd; see views_test.go).
//
// The tests run the real CLI (cmd.Execute) in each case folder, so sources in
// the outputs read input/<file>:<line> on every machine. Besides comparing
// outputs they check two properties a user relies on without thinking about
// it: every store the offline controller can run on prints the same bytes,
// and the same documents in another order, split across other files, print
// the same result apart from source positions.
//
// Run `go test ./golden -update` to rewrite the outputs after an intended
// change, then read the diff: a golden file is only as good as its review.
package golden
