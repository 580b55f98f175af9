#!/bin/sh
# Runs the GPU timing's browser test (page_should_show_the_gpu_timing_of_a_check.js) when there is
# something to test it with: the page, node, and a warpscope built with its class server (the
# teacher's page is its own). No GPU is needed: the test answers the timing's requests itself.
# $1: the site folder (empty: the page was not built), $2: warpscope, $3: the source tree, $4: where its files go.
if [ -z "$1" ] || [ ! -f "$1/warpscope.wasm.gz" ]; then
    echo "page_should_show_the_gpu_timing_of_a_check: skipped: the page was not built (tools/setup-debian.sh)"
    exit 77
fi
command -v node >/dev/null 2>&1 || { echo "page_should_show_the_gpu_timing_of_a_check: skipped: no node (Debian's nodejs)"; exit 77; }
probe="${TMPDIR:-/tmp}/ws-gpu-page-probe-$$"
said=$(timeout 20 "$2" serve --state "$probe" --bind not-an-address 2>&1)
rm -rf "$probe"
if echo "$said" | grep -q "built without the class server\|unknown command"; then
    echo "page_should_show_the_gpu_timing_of_a_check: skipped: this warpscope has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
exec node "$(dirname "$0")/page_should_show_the_gpu_timing_of_a_check.js" "$@"
