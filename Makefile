# hmdp: GraphQL API server for a Dianping-style local-life app.
GO ?= go
PKGS := ./...
GOBIN ?= $(shell $(GO) env GOPATH)/bin
GOLANGCI_LINT_VERSION := 2.15.0
# The binary's name carries its version, so changing the pin installs the new one.
GOLANGCI_LINT := $(GOBIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)

.PHONY: help run build test test-cluster test-cluster-failover fuzz generate lint seed bench check-generate check-tidy test-sentinel load
.PHONY: test-replica test-binlog bench-http bench-ab bench-ab-env paysandbox test-alerts test-tracing soak test-s3

-include web/assets.mk
-include web/app/app.mk

## help: list the targets, one line each
help:
	@awk -F': ' '/^## [a-z-]+: /{ sub(/^## /, ""); printf "  %-16s %s\n", $$1, substr($$0, length($$1) + 3) }' $(MAKEFILE_LIST)

## run: start the server on :8080 (embedded SQLite + Redis unless HMDP_MYSQL_DSN / HMDP_REDIS_ADDR are set) and the sandbox payment provider on :8090
run: playground-assets app-assets
	$(GO) build -o bin/paysandbox ./cmd/paysandbox
	bin/paysandbox & sandbox=$$!; trap 'kill $$sandbox 2>/dev/null' EXIT INT TERM; $(GO) run ./server

## paysandbox: the sandbox payment provider alone on :8090 (pay page, signed notifies, faults: docs/API.md 3.2)
paysandbox:
	$(GO) run ./cmd/paysandbox

## build: build bin/hmdp with the playground assets embedded
build: playground-assets app-assets
	$(GO) build -o bin/hmdp ./server

## test: every test, with the race detector; real MySQL/Redis too when HMDP_TEST_MYSQL_DSN / HMDP_TEST_REDIS_ADDR are set
# Tests that only wait (on sockets, streams, timers) run side by side: more of
# them at once than there are cores.
TEST_PARALLEL ?= 8
test: playground-assets
	$(GO) test -race -count=1 -parallel $(TEST_PARALLEL) -timeout 40m $(PKGS)

## test-cluster: the real-back-end half of the tests again on a throw-away Redis Cluster, 3 masters with a replica each (needs redis-server)
# Only the packages that talk to Redis (go-redis among their dependencies),
# and HMDP_TEST_BACKENDS=real leaves out the embedded half: a cluster cannot
# change the answer of the others.
test-cluster:
	pkgs=$$($(GO) list -f '{{.ImportPath}}{{range .Deps}}{{if eq . "github.com/redis/go-redis/v9"}} redis{{end}}{{end}}' ./internal/... ./lua/... | awk '$$2 == "redis" {print $$1}') && \
	HMDP_TEST_BACKENDS=real scripts/redis-cluster.sh $(GO) test -count=1 -parallel $(TEST_PARALLEL) -timeout 10m $$pkgs

## test-cluster-failover: a flash sale through two instances on a throw-away Redis Cluster while the master holding the sale is killed (needs redis-server, MariaDB)
# Alone: it kills a node of the cluster, which would fail other tests' calls.
test-cluster-failover:
	HMDP_TEST_BACKENDS=real HMDP_TEST_REDIS_FAILOVER=1 scripts/redis-cluster.sh $(GO) test -p 1 -count=1 -timeout 5m -v -run 'TestClusterMasterKilledMidSale|TestWaitReplicasOnCluster' ./internal/app/ ./internal/seckill/

## test-sentinel: a flash sale through Redis Sentinel while the master fails over / is killed (needs redis-server, redis-sentinel)
test-sentinel:
	scripts/redis-sentinel.sh $(GO) test -p 1 -count=1 -timeout 5m -v -run 'TestSentinelFailover|TestAppThroughSentinel' ./internal/seckill/ ./internal/app/

## load: our load generator (scripts/load/loadgen) against three instances behind HAProxy on the real back ends, one killed halfway (LOAD_DURATION, default 60s; needs haproxy, MariaDB, Redis); with prometheus installed (LOAD_PROMETHEUS=auto|1|0) also summary.html of the run's series and alerts in LOAD_OUT; LOAD_IMAGE_STORE=s3 keeps the images in a throw-away S3 server
# LOAD_IMAGE_STORE=s3: the instances keep uploaded images in a throw-away S3
# server (scripts/s3-server.sh), and the run checks an upload through one
# instance is served by the others, also after the kill.
load:
	$(if $(filter s3,$(LOAD_IMAGE_STORE)),LOAD_IMAGE_STORE=s3 scripts/s3-server.sh) scripts/lb.sh scripts/load/run.sh

## soak: steady mixed load (200 requests/s, 200 websockets) on three instances behind HAProxy for SOAK_DURATION (10m; not in CI); fails if heap, goroutines, open files, Redis keys without TTL or memory, MySQL connections still grow in the last half
soak:
	scripts/load/soak.sh

## fuzz: each fuzz target for its number of executions (about 15 s here; FUZZTIME=30s or =1000x for all) on top of its committed seeds (testdata/fuzz)
# Counts, not durations: with a duration Go's fuzz coordinator can fail a
# target with "context deadline exceeded" as the time runs out on a busy
# machine (golang/go#75804, fixed in Go 1.27; this is Go 1.26).
FUZZTIME ?=
FUZZ_TARGETS := \
	./internal/page:FuzzAfter:400000x \
	./internal/auth:FuzzValidPhone:150000x \
	./internal/auth:FuzzValidCode:150000x \
	./internal/image:FuzzSave:3000x \
	./internal/config:FuzzLoad:10000x \
	./internal/app:FuzzGraphQLPost:20000x \
	./internal/app:FuzzGraphQLGet:20000x \
	./internal/app:FuzzGraphQLMultipart:10000x
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$${rest##*:}; \
		if [ -n "$(FUZZTIME)" ]; then budget=$(FUZZTIME); fi; \
		echo "== $$name ($$pkg, $$budget)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$budget $$pkg; \
	done

## generate: all generated code, by the go:generate chain in graph/generate.go (ent, gqlgen, schema.graphql, internal/gqlclient)
generate:
	$(GO) generate ./...

## check-generate: fail if the committed generated code differs from what generate makes
check-generate: generate
	@git diff --exit-code -- ent graph schema.graphql internal/gqlclient docs/API.md README.md go.mod go.sum || (echo "generated code is stale: run make generate and commit" && exit 1)
	@test -z "$$(git status --porcelain -- ent graph schema.graphql internal/gqlclient docs/API.md README.md)" || (git status --porcelain -- ent graph schema.graphql internal/gqlclient docs/API.md README.md; echo "generate made new files: commit them" && exit 1)

## check-tidy: fail if go mod tidy would change go.mod or go.sum
check-tidy:
	$(GO) mod tidy -diff

## lint: golangci-lint (pinned; installed into $(GOBIN) when missing) with .golangci.yml; it runs go vet too
lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...

$(GOLANGCI_LINT):
	GOBIN=$(GOBIN) $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$(GOLANGCI_LINT_VERSION)
	mv $(GOBIN)/golangci-lint $@

## seed: migrate the configured database and load the demo data if it is empty
seed:
	HMDP_SEED=true $(GO) run ./server seed

## bench: benchmarks (ratios to in-run baselines are recorded in docs/BENCHMARKS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(PKGS)

## test-alerts: check and unit-test the Prometheus rules in deploy/prometheus with promtool (Debian: apt-get install prometheus), and that they and the Grafana dashboard name only metrics the server registers
PROMTOOL ?= promtool
test-alerts:
	@command -v $(PROMTOOL) >/dev/null 2>&1 || { echo "test-alerts: $(PROMTOOL) not found; install it (Debian: apt-get install prometheus) or set PROMTOOL=/path/to/promtool" >&2; exit 1; }
	$(PROMTOOL) check config deploy/prometheus/prometheus.yml
	$(PROMTOOL) check rules deploy/prometheus/hmdp.rules.yml
	cd deploy/prometheus && $(PROMTOOL) test rules hmdp.rules.test.yml
	$(GO) test -count=1 ./deploy/...

## test-tracing: the OpenTelemetry tracing tests, TestTracingJaeger against a throw-away Jaeger (scripts/jaeger.sh builds it once into ~/.cache/hmdp; real MySQL/Redis too when HMDP_TEST_* are set)
test-tracing:
	scripts/jaeger.sh $(GO) test -count=1 -timeout 5m -run '^TestTrac|^TestOffCostsNothing|^TestLogLines|^TestRedisSpans|^TestSQLSpans|^TestSpanNames' ./internal/tracing/ ./internal/seckill/ ./internal/app/

## test-s3: the image store on a throw-away S3 server (SeaweedFS, built once into ~/.cache/hmdp/bin by scripts/s3-server.sh): the Blobs contract, variants, the collector, and uploads across instances, one killed (real MySQL/Redis too when HMDP_TEST_* are set)
test-s3:
	scripts/s3-server.sh $(GO) test -race -count=1 -timeout 10m -run 'S3|^TestBlobsContract' ./internal/image/ ./internal/app/

## test-replica: read-replica routing and read-your-writes on a throw-away MariaDB primary + replica (needs mariadbd)
test-replica:
	scripts/mariadb-replication.sh $(GO) test -count=1 -timeout 4m -p 1 -run '^TestReplica' ./internal/database/ ./internal/app/

## test-binlog: binlog-driven cache invalidation across two instances on a throw-away MariaDB primary (needs mariadbd, and Redis at HMDP_TEST_REDIS_ADDR)
test-binlog:
	scripts/mariadb-replication.sh $(GO) test -count=1 -timeout 4m -p 1 -run '^TestBinlog' ./internal/binlog/ ./internal/app/
## bench-http: load test of the built server on real MariaDB+Redis vs bare Redis and a minimal net/http server (needs wrk; BENCH_DURATION=3s BENCH_RUNS=1 BENCH_SESSIONS=5000 for a quick check)
bench-http:
	scripts/bench/run.sh

## bench-ab: flash-sale admission of revision OLD against the work tree (or NEW), interleaved, on real MariaDB+Redis (needs wrk): make bench-ab OLD=<rev>
bench-ab:
	scripts/bench/ab.sh $(OLD) $(NEW)

## bench-ab-env: the app's anonymous shop page under two environments of the same server, interleaved (needs wrk): make bench-ab-env B="GODEBUG=adaptivestackstart=1" [A="..."]
bench-ab-env:
	AB_ENV_A="$(A)" scripts/bench/ab-env.sh "$(B)"
