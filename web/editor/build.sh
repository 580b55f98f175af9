#!/bin/sh
# Builds the page's editor (called by the web target): `npm ci` here when node_modules is missing
# or older than the lock file, then esbuild bundles editor.js and what it imports into one minified
# script, written gzipped as OUT (editor.js.gz beside the page, unzipped by the page as it arrives).
# Without npm, or without the registry, no OUT is written and the page says that it was built
# without its editor (a plain text field stands in). Exits 0 either way: the page builds.
# Usage: build.sh OUT STAMP
out=$1 stamp=$2
cd "$(dirname "$0")" || exit 0
rm -f "$out"
without() { echo "web/editor: $1: the page is built without its editor"; touch "$stamp"; exit 0; }
command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 || without "no npm or node (Debian's nodejs and npm)"
if [ ! -x node_modules/.bin/esbuild ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    # a machine without the registry gives up within a minute or so, not after npm's long retries
    npm ci --silent --no-audit --no-fund --fetch-retries=1 --fetch-timeout=30000 >/dev/null 2>&1 || { rm -rf node_modules; without "npm ci failed (no registry?)"; }
fi
tmp="$out.$$.js"
if node_modules/.bin/esbuild editor.js --bundle --minify --format=iife --target=es2020 --log-level=warning --outfile="$tmp" &&
   gzip -9 -n -c "$tmp" > "$out.$$"; then
    mv "$out.$$" "$out"
    echo "web/editor: editor.js, $(wc -c < "$tmp") bytes, $(wc -c < "$out") gzipped"
else
    rm -f "$out.$$"
    echo "web/editor: esbuild failed: the page is built without its editor"
fi
rm -f "$tmp"
touch "$stamp"
