# Playground assets: the GraphiQL and React browser bundles that the Go binary
# embeds (internal/playground, //go:embed all:assets), so the playground works
# offline. They come from the npm registry through the pinned web/package.json
# and web/package-lock.json and are never committed.
#
# Include this from the repository root Makefile (paths are relative to it):
#     include web/assets.mk
# or run it alone from the repository root:
#     make -f web/assets.mk playground-assets
#
# Without npm the target prints one line and succeeds: the binary then serves a
# page that loads the same pinned versions from a CDN, and says so in its log.

# Included near the top of the root Makefile, this file must not make its own
# first rule the default goal: remember it here, restore it at the end.
PLAYGROUND_SAVED_GOAL := $(.DEFAULT_GOAL)

PLAYGROUND_WEB    ?= web
PLAYGROUND_ASSETS ?= internal/playground/assets
NPM               ?= npm

# node_modules/.package-lock.json is written by every npm ci, so it is the
# timestamp that says whether node_modules is older than the lock.
PLAYGROUND_NPM_STAMP := $(PLAYGROUND_WEB)/node_modules/.package-lock.json

# source-under-node_modules:name-in-assets. Exactly what the page loads, plus
# the MIT licence texts that must travel with the copies. The file names are
# the ones internal/playground/playground.go serves.
PLAYGROUND_FILES := \
	graphiql/graphiql.min.js:graphiql.min.js \
	graphiql/graphiql.min.css:graphiql.min.css \
	graphiql/LICENSE:LICENSE.graphiql \
	react/umd/react.production.min.js:react.production.min.js \
	react/LICENSE:LICENSE.react \
	react-dom/umd/react-dom.production.min.js:react-dom.production.min.js \
	react-dom/LICENSE:LICENSE.react-dom

.PHONY: playground-assets

ifneq ($(shell command -v $(NPM) 2>/dev/null),)

# The copy is cheap and cp -p keeps contents and times, so it always runs:
# that also repairs a half-emptied assets directory.
playground-assets: $(PLAYGROUND_NPM_STAMP)
	@mkdir -p $(PLAYGROUND_ASSETS)
	@for f in $(PLAYGROUND_FILES); do \
		cp -p "$(PLAYGROUND_WEB)/node_modules/$${f%%:*}" "$(PLAYGROUND_ASSETS)/$${f##*:}" || exit 1; \
	done
	@echo "playground-assets: copied $(words $(PLAYGROUND_FILES)) files into $(PLAYGROUND_ASSETS)"

# npm ci only when node_modules is missing or older than the manifest or lock.
$(PLAYGROUND_NPM_STAMP): $(PLAYGROUND_WEB)/package.json $(PLAYGROUND_WEB)/package-lock.json
	cd $(PLAYGROUND_WEB) && $(NPM) ci --no-audit --no-fund
	@touch $@

else

playground-assets:
	@echo "playground-assets: npm not found; the playground will load GraphiQL from a CDN"

endif

.DEFAULT_GOAL := $(PLAYGROUND_SAVED_GOAL)
