#!/bin/sh
# Runs on a machine with an NVIDIA GPU: two builds of warpscope (A and B) measured alternately on
# the same card, v8 at 2^30 floats in batch mode, with CUB and the best read of each run beside
# it, so a difference between the builds can be told from lease-to-lease and run-to-run spread
# (docs/bench-notes.md). One line per run on stdout and in $3/ab-$4.txt, the full tables after.
# $1, $2: the two binaries; $3: where results go; $4: a name for the file; $5: rounds (default 3);
# $6: extra bench flags for both (e.g. "--ept 16": one tile per block).
set -u
a="$1"; b="$2"; out="$3"; tag="$4"; rounds="${5:-3}"; extra="${6:-}"
log="$out/ab-$tag.txt"; full=$(mktemp) || exit 1; tmp=$(mktemp) || exit 1
trap 'rm -f "$full" "$tmp"' EXIT
one() { # name binary
    "$2" bench --versions v8 --sizes 2^30 --modes batch $extra >"$tmp" 2>&1; rc=$?
    echo "$1 rc=$rc $(grep -E '^(v8|cub|best-read) ' "$tmp" | awk '{printf "%s %s us %s GB/s; ", $1, $2, $3}')" | tee -a "$log"
    cat "$tmp" >>"$full"
}
i=1
while [ "$i" -le "$rounds" ]; do
    one "A-$i" "$a"
    one "B-$i" "$b"
    i=$((i + 1))
done
cat "$full" >>"$log"
