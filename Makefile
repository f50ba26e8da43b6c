# gwsim's developer entry points. CI runs .ci/run, which runs `make test`.

GO ?= go

.PHONY: build test conformance conformance-doc bench golden fmt

build:
	$(GO) build -o bin/gwsim .

# test also covers conformance/, a nested module (its own go.mod, so that
# the upstream conformance suite's dependencies stay out of gwsim's) that
# `./...` at the root does not reach.
test:
	$(GO) vet ./...
	$(GO) test ./...
	cd conformance && $(GO) vet ./... && $(GO) test ./...

# conformance runs the upstream Gateway API conformance suite in-process
# against gwsim (conformance/upstream_test.go) and prints the results table
# and the summary line. `make test` runs it too, without the table.
conformance:
	cd conformance && $(GO) test -count=1 -run '^TestUpstreamSuite$$' -v .

# conformance-doc also rewrites the table in docs/conformance.md.
conformance-doc:
	cd conformance && $(GO) test -count=1 -run '^TestUpstreamSuite$$' -v . -update-doc

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

golden:
	$(GO) test ./golden -update

# fmt formats the Go files git tracks (vendored or generated files outside
# git are left alone).
fmt:
	git ls-files -z -- '*.go' | xargs -0 -r gofmt -w
