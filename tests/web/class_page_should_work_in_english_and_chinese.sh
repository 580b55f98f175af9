#!/bin/sh
# Runs the teacher's page's browser test (class_page_should_work_in_english_and_chinese.js) when there
# is something to test it with: node, and a warpscope built with its class server.
# $1: warpscope, $2: the source tree, $3: where its files go (the screenshots).
command -v node >/dev/null 2>&1 || { echo "class_page_should_work_in_english_and_chinese: skipped: no node (Debian's nodejs)"; exit 77; }
probe="${TMPDIR:-/tmp}/ws-class-probe-$$"
said=$(timeout 20 "$1" serve --state "$probe" --bind not-an-address 2>&1)
rm -rf "$probe"
if echo "$said" | grep -q "built without the class server\|unknown command"; then
    echo "class_page_should_work_in_english_and_chinese: skipped: this warpscope has no class server (libmicrohttpd-dev, libsqlite3-dev)"
    exit 77
fi
exec node "$(dirname "$0")/class_page_should_work_in_english_and_chinese.js" "$@"
