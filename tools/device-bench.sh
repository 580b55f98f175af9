#!/bin/sh
# Runs on a machine with an NVIDIA GPU: the full benchmark, twice, so that run-to-run spread shows.
# $1: the warpscope binary; $2: where results go.
set -u
ws="$1"; out="$2"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv | tee "$out/gpu.txt"
"$ws" bench --json "$out/bench.json" --csv "$out/bench.csv" 2>&1 | tee "$out/bench.txt"
"$ws" bench --json "$out/bench2.json" >"$out/bench2.txt" 2>&1
