// Package conformance checks gwsim against the upstream Gateway API
// conformance suite (sigs.k8s.io/gateway-api/conformance v1.6.3): it reads
// the suite's own manifests (base/manifests.yaml and tests/*.yaml from the
// embedded conformance.Manifests), prepares them the way the suite's Applier
// does before a test, and runs them through gwsim's real pipeline (the
// loader, load.AssumeMissing, the offline controller to fixpoint and
// translate). Tests then check the result against the expectations that the
// upstream tests make of a live gateway.
//
// # Why a separate module
//
// The upstream conformance module depends on a live-cluster test harness:
// gRPC, a DNS library, testify, WebSocket and SPDY clients, zap, and more.
// gwsim's own go.mod stays lean because users `go install` it; none of that
// belongs in their build. A nested module (its own go.mod, with a replace of
// github.com/gwsim/gwsim to ../) keeps those dependencies here: `go test ./...`
// at the repository root skips this directory, and `make test` runs it
// separately. The k8s.io and controller-runtime versions resolved here are
// the root module's (the conformance module asks for older ones, and minimal
// version selection picks the root's newer ones).
//
// # Reuse
//
// Setup and Run are the loading helper: the table tests of routing_test.go
// use them, and so will the in-process run of the whole upstream suite
// (issue "Run the upstream conformance suite in-process"), which needs the
// same preparation of the same manifests. What the suite does that Run does
// not (yet) is listed on Setup.
package conformance
