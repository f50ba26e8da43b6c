# gwsim's developer entry points. CI runs .ci/run, which runs `make test`.

GO ?= go

.PHONY: build test race fuzz conformance conformance-doc bench bench-binary golden fmt crds

build:
	$(GO) build -o bin/gwsim .

# test runs the golden cases a second time with every fast path off
# (GWSIM_FASTPATH=off, package internal/fastpath): each fast path must
# print the bytes its library prints. test also covers conformance/, a
# nested module (its own go.mod, so that the upstream conformance suite's
# dependencies stay out of gwsim's) that `./...` at the root does not
# reach.
test:
	$(GO) vet ./...
	$(GO) test ./...
	GWSIM_FASTPATH=off $(GO) test -run '^TestGolden$$' ./golden
	cd conformance && $(GO) vet ./... && $(GO) test ./...
	$(MAKE) race

# race runs the packages that start goroutines (the loader's decoding
# workers, the fixpoint loop's reconcile workers and speculative read, the
# renderers' ordered writer, internal/crash) under the race detector.
# -short keeps TestMutants to a handful of mutants there.
RACE_PKGS ?= ./internal/crash ./offline/... ./cmd ./translate
race:
	$(GO) test -race -short $(RACE_PKGS)

# fuzz runs each fuzz target for FUZZTIME (go test -fuzztime syntax: 10m,
# 30s, 5000x), one after the other, then FUZZ_MUTANTS structure-aware
# mutants of the golden manifests (cmd TestMutants). The corpus the fuzzer
# grows stays in Go's fuzz cache; a crasher is written to the package's
# testdata/fuzz/ and makes the run fail. FUZZMINIMIZE bounds the time
# spent shrinking each new input, which on a busy machine otherwise takes
# most of the run. docs/fuzzing.md records runs.
FUZZTIME ?= 1m
FUZZ_MUTANTS ?= 5000
FUZZMINIMIZE ?= 5s
FUZZ_TARGETS = ./cmd:FuzzPipeline ./cmd:FuzzOutputs ./offline/load:FuzzReadHeader ./offline/validate:FuzzCELFast ./offline/validate:FuzzFastAdmit ./internal/fastpath/yamlin:FuzzConvert ./internal/fastpath/yamlout:FuzzMarshal ./internal/fastpath/jsonin:FuzzFromMap ./internal/fastpath/jsonin:FuzzFromJSON ./internal/fastpath/jsonin:FuzzObjectMap ./offline/validate:FuzzPatternMatchers ./offline/validate:FuzzMetaValid ./internal/fastpath/yamlin:FuzzClean
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg; \
	done
	GWSIM_MUTANTS=$(FUZZ_MUTANTS) $(GO) test -count=1 -run '^TestMutants$$' -timeout 0 ./cmd

# conformance runs the upstream Gateway API conformance suite in-process
# against gwsim (conformance/upstream_test.go) and prints the results table
# and the summary line. `make test` runs it too, without the table.
conformance:
	cd conformance && $(GO) test -count=1 -run '^TestUpstreamSuite$$' -v .

# conformance-doc also rewrites the table in docs/conformance.md.
conformance-doc:
	cd conformance && $(GO) test -count=1 -run '^TestUpstreamSuite$$' -v . -update-doc

# bench runs every Go benchmark: the stages and the bare-decode floor
# (bench/), the renderers and the whole CLI run (cmd/) on generated sets of
# 1k and 10k routes, plus the packages' own micro-benchmarks. Each stage
# reports ns/route, so that sizes compare: BENCH_SIZES=10000,100000 (or
# GWSIM_BENCH_SIZES in the environment) shows whether a stage grows faster
# than linear (100k takes minutes per benchmark); BENCH narrows the
# benchmarks run, as -bench does.
# bench-binary times the built binary instead: bare decode, `gwsim -f` and
# `gwsim check` per size, wall and CPU time, peak RSS, ratio to bare decode
# and cost per route, as the Markdown table docs/performance.md holds
# (bench/run.sh; BENCH_ROUTES picks the sizes, REPEAT the runs per command).
BENCH ?= .
ifdef GWSIM_BENCH_SIZES
BENCH_SIZES ?= $(GWSIM_BENCH_SIZES)
else
BENCH_SIZES ?= 1000,10000
endif
BENCH_ROUTES ?= 1000 10000 100000

# -timeout 0: at 100k a package's benchmarks run longer than go test's
# default 10 minutes.
bench:
	GWSIM_BENCH_SIZES=$(BENCH_SIZES) $(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -timeout 0 ./...

bench-binary:
	bench/run.sh $(BENCH_ROUTES)

golden:
	$(GO) test ./golden -update

# crds copies the Gateway API CRDs (standard and experimental channels) of
# the gateway-api version go.mod requires into offline/validate/crds, which
# the binary embeds; offline/validate's tests fail until this is rerun after
# a version change.
crds:
	cd offline/validate && $(GO) generate .

# fmt formats the Go files git tracks (vendored or generated files outside
# git are left alone).
fmt:
	git ls-files -z -- '*.go' | xargs -0 -r gofmt -w
