#!/usr/bin/env bash
# Installs the pinned drag-and-drop libraries (npm ci, from package-lock.json) and bundles the
# test pages' scripts with esbuild into dist/. drag_libraries_test.go runs it; node_modules/ and
# dist/ are not committed. Like .ci/clients, it needs npm and the registry (or npm's cache).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/esbuild ] || ! cmp -s package-lock.json node_modules/.package-lock.json.ci 2>/dev/null; then
	npm ci --no-audit --no-fund --loglevel=error
	cp package-lock.json node_modules/.package-lock.json.ci
fi
mkdir -p dist
node_modules/.bin/esbuild sortable.js dndkit.jsx --bundle --minify --format=iife --outdir=dist \
	--define:process.env.NODE_ENV='"production"' --log-level=warning
