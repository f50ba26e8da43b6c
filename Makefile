# gwsim's developer entry points. CI runs .ci/run, which runs `make test`.

GO ?= go

.PHONY: build test bench golden fmt

build:
	$(GO) build -o bin/gwsim .

test:
	$(GO) vet ./...
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

golden:
	$(GO) test ./golden -update

# fmt formats the Go files git tracks (vendored or generated files outside
# git are left alone).
fmt:
	git ls-files -z -- '*.go' | xargs -0 -r gofmt -w
