#!/bin/sh
# Runs on a machine with an NVIDIA GPU, with a build of warpscope: the top rung under
# compute-sanitizer (memcheck and racecheck; odd sizes, so the tail loops run, and one of more
# tiles than SMs, so that v8 runs one block per SM and its last block adds the partials with the
# whole block, not one warp), then the full benchmark in both timing modes, then v8 again at the
# sizes where it is nearest the best read or furthest from it, so that run-to-run spread shows.
# $1: the warpscope binary; $2: where results go; $3: a name for the files (h100, h200).
set -u
ws="$1"; out="$2"; tag="$3"
log="$out/log-$tag.txt"
nvidia-smi --query-gpu=name,driver_version,serial,clocks.sm,clocks.mem,power.limit --format=csv | tee "$log"
for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$ws" bench --versions v8,v7 --sizes 1000003,1048579,4194307 \
        --reps 1 --batch 1 >"$out/san-$tool-$tag.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?; $(grep 'SUMMARY' "$out/san-$tool-$tag.txt")" | tee -a "$log"
done
"$ws" bench --json "$out/bench-$tag.json" --csv "$out/bench-$tag.csv" >"$out/bench-$tag.txt" 2>&1
echo "bench exit $?" | tee -a "$log"
"$ws" bench --versions v8 --sizes 2^30,2^28,2^26,2^24,2^20,2^16 >"$out/bench-$tag-again.txt" 2>&1
echo "bench again exit $?" | tee -a "$log"
