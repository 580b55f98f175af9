#!/bin/sh
# Runs on a machine with an NVIDIA GPU: the full benchmark, then a block-size sweep of the top rungs.
# $1: the warpscope binary; $2: where results go.
set -u
ws="$1"; out="$2"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv | tee "$out/gpu.txt"
"$ws" bench --json "$out/bench.json" --csv "$out/bench.csv" 2>&1 | tee "$out/bench.txt"
for b in 128 512 1024; do
  "$ws" bench --sizes 2^16,2^20,2^24,2^28,2^30 --versions v6,v7,v8 --block $b 2>&1 | grep -E "^(v6|v7|v8|cub|read-ceiling) " | sed "s/^/block $b: /" | tee -a "$out/sweep.txt"
done
