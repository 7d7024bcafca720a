#!/usr/bin/env bash
# Installs the pinned UI libraries of the widget corpus (npm ci, from package-lock.json) and bundles
# each page's entry with esbuild into dist/, with Shoelace's assets and theme beside them (served from
# the test server, nothing from a CDN). corpus_test.go runs it; node_modules/ and dist/ are not
# committed. Like .ci/clients, it needs npm and the registry (or npm's cache).
set -euo pipefail
cd "$(dirname "$0")"
# One build at a time: test processes running side by side each call this script.
exec 9>.build.lock
flock 9
if [ ! -x node_modules/.bin/esbuild ] || ! cmp -s package-lock.json node_modules/.package-lock.json.ci 2>/dev/null; then
	npm ci --no-audit --no-fund --loglevel=error
	cp package-lock.json node_modules/.package-lock.json.ci
fi
mkdir -p dist
node_modules/.bin/esbuild react-select.jsx mui.jsx radix.jsx headlessui.jsx tiptap.js codemirror.js shoelace.js \
	datepicker.jsx virtual.jsx sortable.js dndkit.jsx --bundle --minify --format=iife --outdir=dist \
	--define:process.env.NODE_ENV='"production"' --log-level=warning
rm -rf dist/shoelace
mkdir -p dist/shoelace
cp -R node_modules/@shoelace-style/shoelace/dist/assets dist/shoelace/assets
cp node_modules/@shoelace-style/shoelace/dist/themes/light.css dist/shoelace/light.css
