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
expect "$tmp/bad.json:3:18: JSON syntax error" "$ws" stats "$tmp/bad.json"
# break-it switches: a line without a barrier, a bad schedule, a schedule on the GPU
expect 'no __syncthreads() runs at line 26 of kernels/v2.cu' "$ws" hazards --version v2 --drop-barrier 26
expect 'no __syncwarp() runs at line 25 of kernels/v4s.cu' "$ws" capture --version v4s --drop-syncwarp 25 -o "$tmp/d.json"
expect 'no __syncthreads() runs at line 36 of kernels/v4s.cu' "$ws" stats --version v4s --drop-barrier 36
expect '--drop-barrier expects a whole number' "$ws" hazards --version v2 --drop-barrier x
expect '--schedule its needs a seed' "$ws" hazards --version v4 --schedule its
expect '--schedule must be lockstep, its:SEED' "$ws" stats --version v4 --schedule random
expect '--warp-order must be in-order, reversed or seeded:SEED' "$ws" hazards --version v2 --warp-order backwards
expect 'use --backend cpu' "$ws" capture --version v4 --schedule its:1 --backend gpu -o "$tmp/g.json"
expect 'hazards needs --version' "$ws" hazards
[ -e "$tmp/d.json" ] && { echo "FAIL: a rejected drop left a file"; fail=1; }
expect "cannot open for writing" "$ws" capture --version v2 -o "$tmp/no/such/dir/x.json"
# the block shown: a pass or block that is not there, or was not traced
expect '--pass 2: the trace has passes 0 to 1' "$ws" stats --version v2 --n 2^12 --pass 2
expect '--block-index 16: pass 0 has blocks 0 to 15' "$ws" stats --version v2 --n 2^12 --block-index 16
expect 'unknown flag "--pass" for this command' "$ws" capture --version v2 --pass 1 -o "$tmp/p.json"
"$ws" capture --version v2 --n 2^12 -o "$tmp/one.wstrace" 2>/dev/null
expect 'no events of block 3 of pass 0' "$ws" stats "$tmp/one.wstrace" --block-index 3
# a damaged compact trace: one line naming the field
printf 'WSTRACE\032\001\000\000\000\001\000\000\000\005abc' >"$tmp/cut.wstrace"
expect "$tmp/cut.wstrace: provenance.backend" "$ws" stats "$tmp/cut.wstrace"
printf 'not a trace at all' >"$tmp/junk.wstrace"
expect "no WSTRACE header" "$ws" stats "$tmp/junk.wstrace"
# a capture the user already has is not replaced by a failed one
echo keep >"$tmp/keep.json"
"$ws" capture --version v2 --block 100 -o "$tmp/keep.json" 2>/dev/null
grep -q keep "$tmp/keep.json" || { echo "FAIL: a failed capture overwrote the output file"; fail=1; }
# and good input works
"$ws" capture --version v2 -o "$tmp/ok.json" 2>/dev/null && "$ws" stats "$tmp/ok.json" >/dev/null || { echo "FAIL: capture then stats"; fail=1; }
[ $fail -eq 0 ] && echo "cli_should_reject_bad_input: ok"
exit $fail
