# hmdp: GraphQL API server for a Dianping-style local-life app.
GO ?= go
PKGS := ./...
GOBIN ?= $(shell $(GO) env GOPATH)/bin
GOLANGCI_LINT_VERSION := 2.15.0
# The binary's name carries its version, so changing the pin installs the new one.
GOLANGCI_LINT := $(GOBIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)

.PHONY: help run build test test-cluster fuzz generate lint seed bench check-generate check-tidy test-sentinel load
.PHONY: test-replica test-binlog bench-http bench-ab

-include web/assets.mk
-include web/app/app.mk

## help: list the targets, one line each
help:
	@awk -F': ' '/^## [a-z-]+: /{ sub(/^## /, ""); printf "  %-16s %s\n", $$1, substr($$0, length($$1) + 3) }' $(MAKEFILE_LIST)

## run: start the server on :8080 (embedded SQLite + Redis unless HMDP_MYSQL_DSN / HMDP_REDIS_ADDR are set)
run: playground-assets app-assets
	$(GO) run ./server

## build: build bin/hmdp with the playground assets embedded
build: playground-assets app-assets
	$(GO) build -o bin/hmdp ./server

## test: every test, with the race detector; real MySQL/Redis too when HMDP_TEST_MYSQL_DSN / HMDP_TEST_REDIS_ADDR are set
test: playground-assets
	$(GO) test -race -count=1 -timeout 40m $(PKGS)

## test-cluster: the Redis-backed tests again on a throw-away 3-master Redis Cluster (needs redis-server)
test-cluster:
	scripts/redis-cluster.sh $(GO) test -count=1 -timeout 10m ./internal/...

## test-sentinel: a flash sale through Redis Sentinel while the master fails over / is killed (needs redis-server, redis-sentinel)
test-sentinel:
	scripts/redis-sentinel.sh $(GO) test -p 1 -count=1 -timeout 5m -v -run 'TestSentinelFailover|TestAppThroughSentinel' ./internal/seckill/ ./internal/app/

## load: k6 against three instances behind HAProxy on the real back ends, one killed halfway (LOAD_DURATION, default 60s; needs haproxy, MariaDB, Redis)
K6_VERSION := v1.8.1
K6 := $(GOBIN)/k6
load:
	@test -x $(K6) && $(K6) version | grep -q '$(K6_VERSION)' || GOBIN=$(GOBIN) $(GO) install go.k6.io/k6@$(K6_VERSION)
	K6=$(K6) scripts/lb.sh scripts/load/run.sh

## fuzz: each fuzz target for FUZZTIME (15s) on top of its committed seeds (testdata/fuzz)
FUZZTIME ?= 15s
FUZZ_TARGETS := \
	./internal/page:FuzzAfter \
	./internal/auth:FuzzValidPhone \
	./internal/auth:FuzzValidCode \
	./internal/image:FuzzSave \
	./internal/app:FuzzLoadConfig \
	./internal/app:FuzzGraphQLPost \
	./internal/app:FuzzGraphQLGet \
	./internal/app:FuzzGraphQLMultipart
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## generate: all generated code, by the go:generate chain in graph/generate.go (ent, gqlgen, schema.graphql, internal/gqlclient)
generate:
	$(GO) generate ./...

## check-generate: fail if the committed generated code differs from what generate makes
check-generate: generate
	@git diff --exit-code -- ent graph schema.graphql internal/gqlclient go.mod go.sum || (echo "generated code is stale: run make generate and commit" && exit 1)
	@test -z "$$(git status --porcelain -- ent graph schema.graphql internal/gqlclient)" || (git status --porcelain -- ent graph schema.graphql internal/gqlclient; echo "generate made new files: commit them" && exit 1)

## check-tidy: fail if go mod tidy would change go.mod or go.sum
check-tidy:
	$(GO) mod tidy -diff

## lint: golangci-lint (pinned; installed into $(GOBIN) when missing) with .golangci.yml, then go vet
lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...
	$(GO) vet $(PKGS)

$(GOLANGCI_LINT):
	GOBIN=$(GOBIN) $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$(GOLANGCI_LINT_VERSION)
	mv $(GOBIN)/golangci-lint $@

## seed: migrate the configured database and load the demo data if it is empty
seed:
	HMDP_SEED=true $(GO) run ./server seed

## bench: benchmarks (ratios to in-run baselines are recorded in docs/BENCHMARKS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(PKGS)

## test-replica: read-replica routing and read-your-writes on a throw-away MariaDB primary + replica (needs mariadbd)
test-replica:
	scripts/mariadb-replication.sh $(GO) test -count=1 -timeout 4m -p 1 -run '^TestReplica' ./internal/database/ ./internal/app/

## test-binlog: binlog-driven cache invalidation across two instances on a throw-away MariaDB primary (needs mariadbd, and Redis at HMDP_TEST_REDIS_ADDR)
test-binlog:
	scripts/mariadb-replication.sh $(GO) test -count=1 -timeout 4m -p 1 -run '^TestBinlog' ./internal/binlog/ ./internal/app/
## bench-http: load test of the built server on real MariaDB+Redis vs bare Redis and a minimal net/http server (needs wrk, k6; BENCH_DURATION=3s BENCH_RUNS=1 BENCH_SESSIONS=5000 for a quick check)
bench-http:
	scripts/bench/run.sh

## bench-ab: flash-sale admission of revision OLD against the work tree (or NEW), interleaved, on real MariaDB+Redis (needs wrk): make bench-ab OLD=<rev>
bench-ab:
	scripts/bench/ab.sh $(OLD) $(NEW)
