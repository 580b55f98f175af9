#!/bin/sh
# Bad flags, unknown versions and malformed files: exit 2 and one line that says what was wrong.
ws="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect "message part" command...
    want="$1"; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ] || ! grep -q -- "$want" "$tmp/err" || [ "$lines" -ne 1 ]; then
        echo "FAIL: $* -> exit $rc, stderr: $(cat "$tmp/err") (wanted exit 2 and one line with: $want)"
        fail=1
    fi
}
expect 'unknown command "frobnicate"' "$ws" frobnicate
expect 'unknown flag "--bogus"' "$ws" stats --bogus
expect 'unknown version "v99"' "$ws" stats --version v99
expect '--block expects a whole number' "$ws" stats --version v2 --block lots
expect 'runs blocks of 32 to 1024 threads, a power of two; got 100' "$ws" stats --version v2 --block 100
expect 'runs blocks of 64 to 1024' "$ws" stats --version v4 --block 32
expect '--n expects a whole number from 1' "$ws" stats --version v2 --n 0
expect '--n expects a whole number from 1' "$ws" stats --version v2 --n -5
expect 'unknown data pattern "zeros"' "$ws" stats --version v2 --data zeros
expect '--ept applies to v6, v7 and v8' "$ws" stats --version v2 --ept 4
expect 'needs --ept to be a multiple of 2' "$ws" stats --version v6 --ept 5
expect 'capture needs -o FILE' "$ws" capture --version v2
expect 'capture needs --version' "$ws" capture -o "$tmp/x.json"
expect '--seed needs a value' "$ws" stats --version v2 --seed
expect 'give a trace file or --version, not both' "$ws" stats "$tmp/x.json" --version v2
expect "$tmp/none.json: cannot open" "$ws" stats "$tmp/none.json"
printf '{"schema": "warpscope-trace",\n "schema_version": 1,\n "provenance": {]}\n' >"$tmp/bad.json"
expect "$tmp/bad.json:3:17: JSON syntax error" "$ws" stats "$tmp/bad.json"
expect "cannot open for writing" "$ws" capture --version v2 -o "$tmp/no/such/dir/x.json"
# a capture the user already has is not replaced by a failed one
echo keep >"$tmp/keep.json"
"$ws" capture --version v2 --block 100 -o "$tmp/keep.json" 2>/dev/null
grep -q keep "$tmp/keep.json" || { echo "FAIL: a failed capture overwrote the output file"; fail=1; }
# and good input works
"$ws" capture --version v2 -o "$tmp/ok.json" 2>/dev/null && "$ws" stats "$tmp/ok.json" >/dev/null || { echo "FAIL: capture then stats"; fail=1; }
[ $fail -eq 0 ] && echo "cli_should_reject_bad_input: ok"
exit $fail
