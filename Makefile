# gwsim's developer entry points. CI runs .ci/run, which runs `make test`.

GO ?= go

.PHONY: build test bench golden fmt

build:
	$(GO) build -o bin/gwsim .

# test also covers conformance/, a nested module (its own go.mod, so that
# the upstream conformance suite's dependencies stay out of gwsim's) that
# `./...` at the root does not reach.
test:
	$(GO) vet ./...
	$(GO) test ./...
	cd conformance && $(GO) vet ./... && $(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

golden:
	$(GO) test ./golden -update

# fmt formats the Go files git tracks (vendored or generated files outside
# git are left alone).
fmt:
	git ls-files -z -- '*.go' | xargs -0 -r gofmt -w
