#!/bin/sh
# Runs on the device machine, from the repository root (docs/hazards.md): builds tools/hazards_gpu.cu,
# runs compute-sanitizer racecheck on each variant (one launch of two blocks), the many-launch
# trials, and dumps the SASS (v4's tail with and without `volatile`). Output goes to $1.
set -u
out="$1"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -n 2; compute-sanitizer --version | head -n 2; } | tee "$out/gpu.txt"
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -I . -I trace/capture -o /tmp/hg tools/hazards_gpu.cu || exit 1
cuobjdump -sass /tmp/hg >"$out/sass.txt"
[ "${2:-}" = more ] || for spec in "v4 64" "v4 256" "v4s 64" "v4s 256" "v5 32" "v5 64" "v6 32" "v6 64" "v2 256" "v2-drop27 256" "v4-novolatile 64" "naive-race 256"; do
    echo "=== $spec"
    timeout 120 compute-sanitizer --tool racecheck --racecheck-report analysis /tmp/hg once $spec 2>&1
done >"$out/racecheck.txt"
grep -c "Race reported" "$out/racecheck.txt"
[ "${2:-}" = more ] || timeout 300 /tmp/hg trials 200 | tee "$out/trials.txt"
# second round: more launches of the tails and of the in-place kernel at several sizes
if [ "${2:-}" = more ]; then
    for v in v4 v5 v6; do timeout 120 /tmp/hg trials 2000 $v; done | tee "$out/trials-tails.txt"
    for k in 12 16 20 22 24; do timeout 100 /tmp/hg inplace naive-race $k 300; done | tee "$out/trials-naive-race.txt"
    timeout 60 /tmp/hg inplace naive 22 50 | tee -a "$out/trials-naive-race.txt"
fi
