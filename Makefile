# `make test` is the one test command: it installs what the tests need
# (Debian's Chromium, WebKitGTK and Xvfb, the pinned npm packages), checks
# that generated files are committed, then runs go vet, the race-enabled
# unit and integration tests, one run of each benchmark of `make bench`,
# and the browser end-to-end suite.

SHELL := /bin/bash
GO ?= go
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test deps deps-apt deps-npm generate check-generated vet unit bench-smoke e2e screenshots bench bench-all run

test: deps check-generated vet unit bench-smoke e2e

deps: deps-apt deps-npm

# APT_PACKAGES are Debian's Chromium for the browser suite, a CJK font so
# that its Chinese and Japanese pages (and their screenshots) show glyphs,
# not boxes, and WebKitGTK with its Python bindings under Xvfb for the
# WebKit smoke test (e2e/webkit/smoke.py).
APT_PACKAGES := chromium fonts-wqy-microhei xvfb xauth gir1.2-webkit2-4.1 python3-gi

deps-apt:
	@missing="$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done)"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian's" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps-npm:
	cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

generate:
	$(GO) generate ./...

check-generated: generate
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy and commit"; exit 1; }
	@if [ -n "$$(git status --porcelain -- '*_templ.go')" ]; then \
		git status --short -- '*_templ.go'; \
		echo "generated *_templ.go files are stale: run go generate ./... and commit them"; exit 1; \
	fi

vet:
	$(GO) vet ./...
	$(GO) vet -tags e2e ./e2e/

unit:
	$(GO) test -race -count=1 ./...

e2e:
	CI=$${CI:-true} $(GO) test -tags e2e -count=1 -timeout 75m ./e2e/

# screenshots redraws docs/screenshots/ from the 50-server, 1,000-call
# fixture of e2e/scale_*_test.go (its checks run too).
screenshots:
	SWITCHBOARD_SCREENSHOTS=docs/screenshots $(GO) test -tags e2e -count=1 -timeout 20m -run '^TestScale$$' ./e2e/

# bench prints the table of issue #14's speed and memory targets (and the
# gateway's), each number beside its target with PASS or FAIL, and the
# machine it ran on; it fails on a missed target. BENCH_FLAGS passes flags
# to cmd/bench, such as -run Gateway or -o bench.md.
bench:
	$(GO) run ./cmd/bench $(BENCH_FLAGS)

# bench-smoke runs every benchmark of that table once: CI checks that they
# still run, not how fast (a loaded CI machine is no place for timing).
bench-smoke:
	$(GO) run ./cmd/bench -smoke

# bench-all runs every benchmark of the project, the table's and the
# others the README lists, and prints go test's own output.
bench-all:
	$(GO) test -run '^$$' -bench . -benchmem ./domain/ ./handlers/ ./views/
	$(GO) test -run '^$$' -bench ToolCall -benchtime 200x ./cmd/switchboard/
	$(GO) test -run '^$$' -bench Memory -benchtime 5x ./mcpclient/
	$(GO) test -run '^$$' -bench 'Gateway(CallLatency|Throughput)' -benchtime 2000x ./mcpserver/
	$(GO) test -run '^$$' -bench GatewayListTools -benchtime 50x ./mcpserver/
	$(GO) test -run '^$$' -bench GatewaySessionMemory -benchtime 1000x ./mcpserver/

run:
	$(GO) run ./cmd/switchboard
