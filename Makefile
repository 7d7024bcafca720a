# Ghostlight: the README's two commands are `make demo` and `make test`.
SHELL := /bin/bash
GO ?= go
PKGS := ./...
FUZZTIME ?= 50000x

.PHONY: all demo test race generate check-generated lint staticcheck bench bench-live bench-corpus fuzz build browser node testpages clean dist cross clients client-bytes scale haproxy

all: check-generated lint staticcheck test race

# Chromium from the OS packages (never a browser a library downloads).
browser:
	@bash .ci/browser

# npm, for the pinned drag-library test pages and the real MCP clients.
node:
	@bash .ci/node

# The drag-library test pages (SortableJS, dnd-kit) and the widget corpus (conformance/corpus:
# react-select, MUI, Radix, Headless UI, TipTap, CodeMirror, Shoelace...), installed from their
# lockfiles and bundled.
testpages: node
	@bash runtime/tools/testdata/draglibs/build.sh
	@bash conformance/corpus/build.sh

build:
	$(GO) build -o bin/ghostlight ./tools/ghostlight

# A newcomer's first run: build, start the server as an MCP client would
# (stdio) and drive a short real session on the embedded demo page.
demo: browser build
	bin/ghostlight demo --out demo-out

test: browser testpages
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout 20m $(PKGS)

generate:
	$(GO) generate ./...

# Regenerate, then fail if git sees any difference: generated/ is never edited by hand.
check-generated: generate
	@if [ -n "$$(git status --porcelain -- generated README.md)" ]; then \
		echo "generated/ is out of date with spec/: run go generate ./... and commit"; \
		git status --porcelain -- generated README.md; git diff --stat -- generated README.md; exit 1; fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	@out=$$(git ls-files -z | xargs -0 -r grep -IL -- '' | grep -v -E '\.(png|gif|jpg|ico|woff2?)$$' || true); \
	if [ -n "$$out" ]; then echo "binary files tracked (build output belongs in bin/ or dist/):"; echo "$$out"; exit 1; fi

# Linters are pinned and installed by the project itself (GOBIN under bin/), never taken from PATH.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(CURDIR)/bin/tools/staticcheck-$(STATICCHECK_VERSION)

$(STATICCHECK):
	@mkdir -p $(CURDIR)/bin/tools/tmp
	GOBIN=$(CURDIR)/bin/tools/tmp $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv $(CURDIR)/bin/tools/tmp/staticcheck $@

staticcheck: $(STATICCHECK)
	$(STATICCHECK) $(PKGS)

# The race detector over the handwritten runtime, against real Chromium.
race: browser testpages
	$(GO) test -race -count=1 -timeout 30m ./runtime/...

bench: browser
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Ghostlight against the browser itself (raw DevTools floors) and a shop task,
# step by step and as one flow; rewrites docs/performance.md.
bench-live: browser
	$(GO) run ./tools/bench-live -out docs/performance.md

# The widget corpus on Ghostlight and on chrome-devtools-mcp (pinned in
# tools/bench-live/peer): the model-visible byte table in docs/performance.md.
bench-corpus: browser node
	$(GO) run ./tools/bench-live -corpus 3 -out docs/performance.md

fuzz:
	$(GO) test ./conformance/ -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/mcpedge/ -run '^$$' -fuzz FuzzTextParse -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/governance/ -run '^$$' -fuzz FuzzCanonicalHost -fuzztime $(FUZZTIME)

# Release archives for every target, version and commit stamped in, with SHA256SUMS (dist/);
# the npm packages (dist/npm/: launcher ghostlight-mcp, one package per target) and dist/server.json.
dist:
	$(GO) run ./.ci/dist -out dist $(if $(VERSION),-version $(VERSION))

# The server builds and vets on macOS and Windows; browser-free tests compile there.
cross:
	@bash .ci/cross

# Real MCP clients against the built binary (Go SDK; Node: AI SDK, TypeScript SDK, Inspector CLI,
# Claude Code against a stand-in model).
clients: browser
	@bash .ci/clients

# The per-client table of docs/clients.md: bytes of the tool definitions Claude Code, Gemini CLI,
# Codex and the AI SDK send a stand-in model for Ghostlight, playwright-mcp and chrome-devtools-mcp.
client-bytes: browser
	@bash .ci/client-bytes

# HAProxy from the OS packages, for make scale.
haproxy:
	@bash .ci/haproxy

# Three replicas behind HAProxy, 24 agents over MCP 2026-07-28, one replica killed
# (conformance/scale, build tag scale); prints the figures docs/deployment.md quotes.
scale: browser haproxy
	$(GO) vet -tags scale ./conformance/scale/
	$(GO) test -tags scale -count=1 -timeout 10m -v -run TestScale ./conformance/scale/

clean:
	rm -rf bin demo-out dist
