#!/bin/sh
# Ctrl+C during a long capture: exit 130, one line, and no output file, partial or temporary.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for out in x.json x.wstrace; do
    # a capture of several seconds on one worker (the machine may be fast: the n is large)
    "$ws" capture --version v2 --n 2^24 --workers 1 -o "$tmp/$out" 2>"$tmp/err" &
    pid=$!
    sleep 0.5
    kill -INT $pid
    wait $pid
    rc=$?
    if [ "$rc" -ne 130 ] || ! grep -q "interrupted" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL: $out: exit $rc, stderr: $(cat "$tmp/err") (wanted 130 and one line saying interrupted)"
        fail=1
    fi
    left=$(ls -A "$tmp" | grep -v '^err$')
    if [ -n "$left" ]; then echo "FAIL: $out: left behind: $left"; fail=1; fi
done
[ $fail -eq 0 ] && echo "interrupted_capture_should_leave_no_file: ok"
exit $fail
