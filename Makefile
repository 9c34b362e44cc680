# hmdp: GraphQL API server for a Dianping-style local-life app.
GO ?= go
PKGS := ./...

.PHONY: run build test test-short test-cluster generate lint seed bench check-generate

-include web/assets.mk

## run: start the server on :8080 (embedded SQLite + Redis unless HMDP_MYSQL_DSN / HMDP_REDIS_ADDR are set)
run: playground-assets
	$(GO) run ./server

## build: build bin/hmdp with the playground assets embedded
build: playground-assets
	$(GO) build -o bin/hmdp ./server

## test: every test, with the race detector; real MySQL/Redis too when HMDP_TEST_MYSQL_DSN / HMDP_TEST_REDIS_ADDR are set
test: playground-assets
	$(GO) test -race -count=1 -timeout 15m $(PKGS)

## test-cluster: the flash-sale, id and lock tests on a 3-master Redis Cluster started on local ports (needs redis-server, redis-cli)
test-cluster:
	GO=$(GO) ./scripts/test-cluster.sh

## generate: ent (with entgql) first, then gqlgen
generate:
	cd ent && $(GO) run entc.go
	$(GO) run github.com/99designs/gqlgen generate

## check-generate: fail if the committed generated code differs from what generate makes
check-generate: generate
	@git diff --exit-code -- ent graph || (echo "generated code is stale: run make generate and commit" && exit 1)
	@test -z "$$(git status --porcelain -- ent graph)" || (git status --porcelain -- ent graph; echo "generate made new files: commit them" && exit 1)

## lint: gofmt and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); test -z "$$out" || (echo "gofmt needed:"; echo "$$out"; exit 1)
	$(GO) vet $(PKGS)

## seed: migrate the configured database and load the demo data if it is empty
seed:
	HMDP_SEED=true $(GO) run ./server seed

## bench: benchmarks (ratios to in-run baselines are recorded in docs/BENCHMARKS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(PKGS)
