# The single-page app (web/app): Vue 3 + Vite, embedded into the Go binary by
# web/app/webapp.go (//go:embed all:dist) and served at /app/.
#
# Include this from the repository root Makefile (paths are relative to it):
#     include web/app/app.mk
#
#   make app-assets   npm ci (when needed) + vite build into web/app/dist
#   make web-dev      Vite dev server on :5173, proxying /graphql (websockets
#                     too) and /images to a server at http://localhost:8080
#                     (HMDP_DEV_API=http://host:port for another one)
#   make test-web     builds the server and the app, starts the server on the
#                     embedded back ends (free port, temp data dir), runs the
#                     Playwright tests with Debian's chromium, stops the server
#
# Without npm, app-assets prints one line and succeeds: the binary then
# answers /app/ with a page saying how to build the app.

# Included near the top of the root Makefile, this file must not make its own
# first rule the default goal: remember it here, restore it at the end.
APP_SAVED_GOAL := $(.DEFAULT_GOAL)

APP_DIR       ?= web/app
NPM           ?= npm
GO            ?= go
APP_NPM_STAMP := $(APP_DIR)/node_modules/.package-lock.json
APP_SOURCES    = $(shell find $(APP_DIR)/src $(APP_DIR)/public -type f 2>/dev/null) \
                 $(APP_DIR)/index.html $(APP_DIR)/vite.config.ts $(APP_DIR)/package-lock.json
CHROMIUM      ?= /usr/bin/chromium

.PHONY: app-assets web-dev test-web test-web-e2e check-web

ifneq ($(shell command -v $(NPM) 2>/dev/null),)

app-assets: $(APP_DIR)/dist/index.html

# Rebuilt only when a source, the config or the lock changed.
$(APP_DIR)/dist/index.html: $(APP_NPM_STAMP) $(APP_SOURCES)
	cd $(APP_DIR) && $(NPM) run build
	@touch $@

# npm ci only when node_modules is missing or older than the manifest or lock.
$(APP_NPM_STAMP): $(APP_DIR)/package.json $(APP_DIR)/package-lock.json
	cd $(APP_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

web-dev: $(APP_NPM_STAMP)
	cd $(APP_DIR) && $(NPM) run dev -- --host 127.0.0.1

# web/app/playwright.config.ts starts this binary (e2e/global-setup.ts): a
# free port, a fresh temp data dir, the embedded SQLite and Redis; the tests
# read the login codes from its stdout. It pays through the sandbox payment
# provider (bin/paysandbox), started on another free port.
test-web: check-web
	$(MAKE) --no-print-directory test-web-e2e

# check-web: the app's checks without a browser (CI runs them beside lint).
check-web: app-assets
	# The operations must still match the schema (graph/*.graphqls) and type-check.
	cd $(APP_DIR) && $(NPM) run --silent check
	cd $(APP_DIR) && $(NPM) run --silent size && $(NPM) test --silent

# test-web-e2e: only the Playwright tests (CI runs them a second time on the
# real back ends, E2E_MYSQL_DSN and E2E_REDIS_ADDR, without the checks above).
test-web-e2e: app-assets
	$(GO) build -o bin/hmdp-web-test ./server
	$(GO) build -o bin/paysandbox ./cmd/paysandbox
	cd $(APP_DIR) && HMDP_BIN=$(CURDIR)/bin/hmdp-web-test PAYSANDBOX_BIN=$(CURDIR)/bin/paysandbox CHROMIUM=$(CHROMIUM) $(NPM) run e2e

else

app-assets:
	@echo "app-assets: npm not found; /app/ will say how to build the web app"

web-dev test-web test-web-e2e check-web:
	@echo "$@: needs npm (Node.js 20 or newer)"; exit 1

endif

.DEFAULT_GOAL := $(APP_SAVED_GOAL)
