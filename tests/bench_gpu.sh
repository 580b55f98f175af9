#!/bin/sh
# The benchmark on a real GPU (label gpu): a short run in both timing modes whose every result must
# check out; the table names each mode and marks the latency-bound size; the JSON says schema 2.
# Skipped (77) without a GPU or without CUDA in the build.
ws="$1"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$("$ws" bench --sizes 2^16,2^20,1000003 --reps 5 --batch 20 --json "$tmp/b.json" 2>&1); rc=$?
case "$out" in *"needs an NVIDIA GPU"*|*"needs a build with CUDA"*) echo "no GPU or no CUDA build: skipped"; exit 77;; esac
echo "$out" | tail -n 40
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
echo "$out" | grep -q WRONG && { echo "FAIL: a wrong result"; fail=1; }
echo "$out" | grep -q "^== per launch" || { echo "FAIL: no per-launch table"; fail=1; }
echo "$out" | grep -q "^== batch" || { echo "FAIL: no batch table"; fail=1; }
echo "$out" | grep -q "(2^16), .*launch latency, not bandwidth" || { echo "FAIL: 2^16 not marked latency-bound"; fail=1; }
grep -q '"schema_version": 2' "$tmp/b.json" || { echo "FAIL: no schema 2 JSON"; fail=1; }
[ -e "$tmp/b.json.tmp" ] && { echo "FAIL: temporary file left"; fail=1; }
exit $fail
