#!/bin/sh
# Runs the editor's browser test (page_should_run_a_kernel_from_the_editor.js) when there is
# something to test it with: the page, node, and a warpscope built with its class server.
# $1: the site folder (empty: the page was not built), $2: warpscope, $3: the source tree, $4: where its files go.
if [ -z "$1" ] || [ ! -f "$1/warpscope.wasm.gz" ]; then
    echo "page_should_run_a_kernel_from_the_editor: skipped: the page was not built (it needs clang, lld, wasi-libc, libclang-rt-14-dev-wasm32 and cJSON's source: tools/setup-debian.sh)"
    exit 77
fi
command -v node >/dev/null 2>&1 || { echo "page_should_run_a_kernel_from_the_editor: skipped: no node (Debian's nodejs)"; exit 77; }
# a flag value every real server refuses at once: the build without one says so instead
probe="${TMPDIR:-/tmp}/ws-editor-probe-$$"
said=$(timeout 20 "$2" serve --state "$probe" --workers 0 2>&1)
rm -rf "$probe"
if echo "$said" | grep -q "built without the class server\|unknown command"; then
    echo "page_should_run_a_kernel_from_the_editor: skipped: this warpscope has no class server (warpscope serve: libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
exec node "$(dirname "$0")/page_should_run_a_kernel_from_the_editor.js" "$@"
