# Herald — the Makefile is the command index: `make help` lists the targets.

SHELL := /bin/bash
GO ?= go
TEMPORAL_CLI_VERSION := v1.5.1
SQLC_VERSION := v1.31.1
BIN := $(CURDIR)/bin
GO_TEST_FLAGS ?=

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*?## "} /^[a-zA-Z0-9_\/.-]+:.*?## / {printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: console ## build bin/herald with the console web app embedded
	$(GO) build -o $(BIN)/herald ./cmd/herald

CONSOLE := web/console

$(CONSOLE)/node_modules/.package-lock.json: $(CONSOLE)/package-lock.json
	cd $(CONSOLE) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: console
console: $(CONSOLE)/node_modules/.package-lock.json ## build the console web app into web/console/dist (embedded by the next go build)
	cd $(CONSOLE) && npm run build

.PHONY: console-dev
console-dev: $(CONSOLE)/node_modules/.package-lock.json ## the console with hot reload on :5173, against `make dev` (HERALD_URL, default http://localhost:8080)
	cd $(CONSOLE) && npm run dev

# The pinned Temporal CLI (dev server + Web UI), built once from the Go module proxy.
$(BIN)/temporal:
	@echo "building the Temporal CLI $(TEMPORAL_CLI_VERSION) into bin/ (once; takes a few minutes)"
	GOBIN=$(BIN) $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)

.PHONY: temporal
temporal: $(BIN)/temporal ## build the pinned Temporal CLI into bin/temporal (cached)

# The pinned Temporal server and its SQL tool, for `make test-cluster` (not needed otherwise).
TEMPORAL_SERVER_VERSION := v1.29.1
TEMPORAL_SCHEMA = $(shell $(GO) env GOMODCACHE)/go.temporal.io/server@$(TEMPORAL_SERVER_VERSION)/schema/postgresql/v12

$(BIN)/temporal-server $(BIN)/temporal-sql-tool &:
	@echo "building the Temporal server $(TEMPORAL_SERVER_VERSION) and its SQL tool into bin/ (once; takes several minutes)"
	rm -rf $(BIN)/.temporal-server && mkdir -p $(BIN)/.temporal-server
	GOBIN=$(BIN)/.temporal-server $(GO) install go.temporal.io/server/cmd/server@$(TEMPORAL_SERVER_VERSION) go.temporal.io/server/cmd/tools/sql@$(TEMPORAL_SERVER_VERSION)
	mv $(BIN)/.temporal-server/server $(BIN)/temporal-server && mv $(BIN)/.temporal-server/sql $(BIN)/temporal-sql-tool && rmdir $(BIN)/.temporal-server

.PHONY: test-cluster
test-cluster: build $(BIN)/temporal $(BIN)/temporal-server $(BIN)/temporal-sql-tool ## the scale test and the delivery benchmark on a Temporal server with Postgres persistence (builds the server; not part of make test)
	$(GO) run ./cmd/temporal-cluster -bin $(BIN) -schema $(TEMPORAL_SCHEMA) -- \
		bash -c '$(MAKE) test-scale && $(GO) run ./cmd/herald-bench -bin $(BIN) -quick -scenarios delivery,email -temporal "$$HERALD_CLUSTER_ADDRESS" -out -'

.PHONY: bench-isolation-cluster
bench-isolation-cluster: build $(BIN)/temporal $(BIN)/temporal-server $(BIN)/temporal-sql-tool ## the isolation benchmark (issue 28) on a Temporal server with Postgres persistence and the dynamic config deployment.md recommends, herald api and herald worker as separate processes; ISOLATION_FLAGS=-quick for the short form (builds the server; not part of make test)
	$(GO) run ./cmd/temporal-cluster -bin $(BIN) -schema $(TEMPORAL_SCHEMA) -- \
		bash -c '$(GO) run ./cmd/herald-bench -bin $(BIN) -scenarios isolation -split -temporal "$$HERALD_CLUSTER_ADDRESS" -out - $(ISOLATION_FLAGS)'

.PHONY: test-cluster-tls
test-cluster-tls: $(BIN)/temporal $(BIN)/temporal-server $(BIN)/temporal-sql-tool ## the scale test through a Temporal server (Postgres persistence) that requires mutual TLS, with certificates made by the run (builds the server; not part of make test)
	$(GO) run ./cmd/temporal-cluster -tls -dir .data/temporal-cluster-tls -bin $(BIN) -schema $(TEMPORAL_SCHEMA) -- $(MAKE) test-scale

$(BIN)/sqlc:
	GOBIN=$(BIN) $(GO) install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)

.PHONY: docs-config
docs-config: ## regenerate docs/configuration.md from the struct tags of internal/platform/config
	$(GO) run ./cmd/herald config --markdown > docs/configuration.md.tmp && mv docs/configuration.md.tmp docs/configuration.md

.PHONY: dev
dev: build $(BIN)/temporal ## run API + worker + relay with a local Temporal (and Postgres when none answers)
	$(BIN)/herald dev

.PHONY: test
# The official Standard Webhooks library that integration/event_webhooks_test.go verifies
# Herald's event webhook requests with (test-only, its own lockfile).
WEBHOOKVERIFY := integration/webhookverify

$(WEBHOOKVERIFY)/node_modules/.package-lock.json: $(WEBHOOKVERIFY)/package-lock.json
	cd $(WEBHOOKVERIFY) && npm ci --no-audit --no-fund --loglevel=error

test: $(BIN)/temporal $(WEBHOOKVERIFY)/node_modules/.package-lock.json ## run every test, including end-to-end tests on the real Temporal dev server, then the SDKs, the Helm chart, the compose file, test-web, test-faults, test-scale and test-upgrade
	HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test $(GO_TEST_FLAGS) ./...
	$(MAKE) test-sdk-go
	$(MAKE) test-sdk-node
	$(MAKE) test-sdk-python
	$(MAKE) test-helm
	$(MAKE) test-compose
	$(MAKE) test-web
	$(MAKE) test-faults
	$(MAKE) test-scale
	$(MAKE) test-upgrade

WIDGET := web/inbox

$(WIDGET)/node_modules/.package-lock.json: $(WIDGET)/package-lock.json
	cd $(WIDGET) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: widget
widget: $(WIDGET)/node_modules/.package-lock.json ## rebuild the inbox widget into web/inbox/dist/widget (commit it: go:embed serves it)
	cd $(WIDGET) && node build.mjs

INBOX_REACT := web/inbox/react

$(INBOX_REACT)/node_modules/.package-lock.json: $(INBOX_REACT)/package-lock.json $(WIDGET)/node_modules/.package-lock.json
	cd $(INBOX_REACT) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: inbox-react
inbox-react: $(INBOX_REACT)/node_modules/.package-lock.json ## build the React package @heraldhq/inbox-react (fails over 10 KB gzip on top of the headless client)
	cd $(INBOX_REACT) && node build.mjs

.PHONY: test-web
test-web: $(BIN)/temporal $(WIDGET)/node_modules/.package-lock.json $(INBOX_REACT)/node_modules/.package-lock.json console ## the inbox widget, its React package and the console: unit tests, freshness, budgets, Playwright in Chromium against a real stack
	cd $(WIDGET) && npm test
	cd $(INBOX_REACT) && node build.mjs && npm run typecheck && npm test
	cd $(CONSOLE) && npm test
	HERALD_WEB_TESTS=1 HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 $(GO_TEST_FLAGS) -run 'TestInboxWidgetInChromium|TestCommittedWidgetBundleIsFresh|TestInboxReactInChromium|TestConsole|TestPreferencePageInChromium' ./integration/

.PHONY: console-screenshots
console-screenshots: $(BIN)/temporal console ## retake the screenshots of docs/console.md (light and dark)
	HERALD_WEB_TESTS=1 HERALD_CONSOLE_SCREENSHOTS=$(CURDIR)/docs/console HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -run TestConsoleInChromium ./integration/

.PHONY: widget-screenshots
widget-screenshots: $(BIN)/temporal $(WIDGET)/node_modules/.package-lock.json ## retake the screenshots of docs/inbox-widget.md
	HERALD_WEB_TESTS=1 HERALD_WIDGET_SCREENSHOTS=$(CURDIR)/docs/images HERALD_WIDGET_GREP='screenshot|position:|toast' HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -run TestInboxWidgetInChromium ./integration/

.PHONY: inbox-react-screenshots
inbox-react-screenshots: $(BIN)/temporal $(INBOX_REACT)/node_modules/.package-lock.json ## retake the screenshots of docs/inbox-react.md (light and dark)
	HERALD_WEB_TESTS=1 HERALD_REACT_SCREENSHOTS=$(CURDIR)/docs/images HERALD_REACT_GREP='screenshot|preferences view' HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -run TestInboxReactInChromium ./integration/

.PHONY: test-faults
test-faults: $(BIN)/temporal ## fault injection with real processes (SIGKILL, SIGTERM, Postgres restart); prints the figures (docs/reliability.md)
	HERALD_FAULTS=1 HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -v $(GO_TEST_FLAGS) ./integration/faults/

.PHONY: test-scale
test-scale: $(BIN)/temporal ## 2 API + 2 worker processes on one Postgres and Temporal: exactly-once under a worker kill, cross-API realtime, shared limits; prints a summary (docs/deployment.md)
	HERALD_SCALE=1 HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -v -timeout 15m $(GO_TEST_FLAGS) ./integration/scale/

.PHONY: test-upgrade
test-upgrade: $(BIN)/temporal ## the previous release's api and worker (built from its commit) and this tree's side by side under sends, old ones stopped halfway: every send delivered exactly once (docs/deployment.md, Rolling upgrades)
	HERALD_UPGRADE=1 HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -v -timeout 15m $(GO_TEST_FLAGS) ./integration/upgrade/

HISTORY_SET ?= current

.PHONY: record-histories
record-histories: $(BIN)/temporal ## record workflow histories into workflows/testdata/$(HISTORY_SET) (see docs/architecture.md, Workflow versioning)
	HERALD_RECORD_HISTORIES=$(HISTORY_SET) HERALD_REQUIRE_INTEGRATION=1 HERALD_TEMPORAL_CLI=$(BIN)/temporal $(GO) test -count=1 -v -run '^TestRecordHistories$$' ./workflows/

.PHONY: test-sdk-go
test-sdk-go: ## the Go SDK's own module (sdk/go): unit tests and the freshness of its generated types (its stack tests are integration/sdk)
	cd sdk/go && $(GO) vet ./... && $(GO) test -count=1 $(GO_TEST_FLAGS) ./...

NODE_SDK := sdk/node

$(NODE_SDK)/node_modules/.package-lock.json: $(NODE_SDK)/package-lock.json
	cd $(NODE_SDK) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: test-sdk-node
test-sdk-node: $(NODE_SDK)/node_modules/.package-lock.json ## the Node SDK (sdk/node): type-checked ESM + CJS build, unit tests, freshness of its generated types (its stack tests are integration/sdk)
	cd $(NODE_SDK) && npm test

.PHONY: sdk-node-types
sdk-node-types: $(NODE_SDK)/node_modules/.package-lock.json ## regenerate sdk/node/src/api.gen.ts from api/v3/openapi.json
	cd $(NODE_SDK) && npm run gen

.PHONY: test-helm
test-helm: ## the Helm chart (deploy/helm/herald) rendered with Helm's Go SDK and strictly decoded into the Kubernetes types; its own module (deploy/helm/test), so the server never depends on Helm
	cd deploy/helm/test && $(GO) vet ./... && $(GO) test -count=1 $(GO_TEST_FLAGS) ./...
.PHONY: test-compose
test-compose: ## docker-compose.yml checked with the Compose specification's Go library (deploy/compose, its own module): health checks, secrets without defaults, loopback ports, the README's commands
	cd deploy/compose && $(GO) vet ./... && $(GO) test -count=1 $(GO_TEST_FLAGS) ./...

.PHONY: sdk-go-types
sdk-go-types: ## regenerate sdk/go/types_gen.go from api/v3/openapi.json
	cd sdk/go && $(GO) run ./internal/cmd/typegen -in ../../api/v3/openapi.json -out types_gen.go

PYTHON ?= python3

.PHONY: test-sdk-python
test-sdk-python: ## the Python SDK (sdk/python): unit tests and the freshness of its generated types, with the system python3 (its stack tests are integration/sdk)
	cd sdk/python && $(PYTHON) -m unittest discover -s tests -t .

.PHONY: sdk-python-types
sdk-python-types: ## regenerate sdk/python/herald/_types.py from api/v3/openapi.json
	cd sdk/python && $(PYTHON) scripts/gen_types.py

.PHONY: test-unit
test-unit: ## run tests that need neither Postgres nor Temporal (fast)
	$(GO) test -short ./internal/send/ ./internal/platform/config/... ./internal/platform/secrets/... ./workflows/...

FUZZTIME ?= 30s
FUZZ_TARGETS := ./internal/send/:FuzzParse ./internal/audience/users/:FuzzApplyPatch ./internal/delivery/render/:FuzzRender ./internal/flow/flowdef/:FuzzParse ./internal/realtime/socketio/:FuzzParse ./internal/realtime/socketio/:FuzzDecodePayload ./internal/platform/safeurl/:FuzzCheck

.PHONY: fuzz
fuzz: ## run each fuzz target for FUZZTIME (default 30s); `make test` runs only their seed corpora
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "== $$fn in $$pkg"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) || exit 1; done

.PHONY: bench
bench: build $(BIN)/temporal ## run the benchmark suite on a stack it starts (about 10 min); writes docs/benchmarks.md
	$(GO) run ./cmd/herald-bench -bin $(BIN)
	$(MAKE) bench-realtime

.PHONY: bench-broadcast-1m
bench-broadcast-1m: build $(BIN)/temporal ## broadcast to a topic of 1,000,000 users: completion, worker memory, history size (slow)
	$(GO) run ./cmd/herald-bench -bin $(BIN) -scenarios broadcast -broadcast 1000000 -out -

.PHONY: bench-quick
bench-quick: build $(BIN)/temporal ## the benchmark suite with short phases (about 3 min); prints the report
	$(GO) run ./cmd/herald-bench -bin $(BIN) -quick -out -

.PHONY: bench-retention
bench-retention: build $(BIN)/temporal ## the retention purge beside inbox reads and the partitioning measurement (about 5 min); prints the section
	$(GO) run ./cmd/herald-bench -bin $(BIN) -scenarios retention -out -

.PHONY: bench-realtime
bench-realtime: build $(BIN)/temporal ## realtime: API memory with 10,000 idle Socket.IO connections, send-to-event latency
	$(GO) build -o $(BIN)/realtimebench ./cmd/realtimebench
	$(BIN)/realtimebench -herald $(BIN)/herald -temporal $(BIN)/temporal $(REALTIME_BENCH_FLAGS)
	$(BIN)/realtimebench -herald $(BIN)/herald -temporal $(BIN)/temporal -conns 1000 -sends 500 -rate 50 -publishes 0

.PHONY: generate
generate: $(BIN)/sqlc ## regenerate the sqlc package from db/queries and db/migrations
	$(BIN)/sqlc generate

.PHONY: lint
lint: ## gofmt check and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd sdk/go && $(GO) vet ./...
	cd deploy/compose && $(GO) vet ./...

.PHONY: migrate
migrate: build ## create the database if missing and apply migrations
	$(BIN)/herald migrate

.PHONY: docker-up
docker-up: ## the alternative stack: docker compose up (Postgres, Temporal + UI, API, worker, Mailpit)
	docker compose up --build

.PHONY: stop-postgres
stop-postgres: build ## stop the private Postgres cluster under .data/pg, if one was started
	$(BIN)/herald devdb stop

.PHONY: clean
clean: ## remove build output (keeps bin/temporal and .data)
	rm -f $(BIN)/herald
