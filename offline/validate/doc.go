// Package validate admits Gateway API objects offline the way
// kube-apiserver admits a custom resource on create, with the API server's
// own library (k8s.io/apiextensions-apiserver) and the CRDs of the
// gateway-api module that go.mod names, embedded in the binary (crds/,
// written by `go generate`; a test fails when they differ from the
// module's).
//
// For one object, in the API server's order:
//  1. status is dropped (every Gateway API kind has a status subresource,
//     so a create never stores it) and unknown fields are pruned against
//     the structural schema of the object's version, in the chosen
//     channel; the pruned paths are returned;
//  2. the structural-schema defaults are applied;
//  3. metadata is validated (name, labels, annotations) as for any
//     namespaced or cluster-scoped object, then the OpenAPI v3 schema
//     (types, enums, patterns, bounds, required), the list-type invariants
//     (x-kubernetes-list-type set and map), and, when none of those errors
//     blocks it, the x-kubernetes-validations CEL rules.
//
// Errors are the library's own field.ErrorList: field paths and messages
// are what `kubectl apply` prints.
//
// Each kind, version and channel is compiled once, on first use, and only
// for the kinds the input holds; a Validator is safe for concurrent use.
package validate
