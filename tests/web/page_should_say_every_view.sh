#!/bin/sh
# Runs the browser test (page_should_say_every_view.js) when there is something to test it with.
# $1: the site folder (empty: the page was not built), $2: warpscope, $3: where its files go.
if [ -z "$1" ] || [ ! -f "$1/warpscope.wasm.gz" ]; then
    echo "page_should_say_every_view: skipped: the page was not built (it needs clang, lld, wasi-libc, libclang-rt-14-dev-wasm32 and cJSON's source: tools/setup-debian.sh)"
    exit 77
fi
command -v node >/dev/null 2>&1 || { echo "page_should_say_every_view: skipped: no node (Debian's nodejs)"; exit 77; }
exec node "$(dirname "$0")/page_should_say_every_view.js" "$@"
