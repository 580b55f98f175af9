#!/bin/sh
# Runs on the device machine, from the repository root, with a build of this machine carried in
# .devlib (binary and libraries): GPU captures of v2 over 2^20 elements in blocks of 64, 256 and
# 1024 with every block's SM and times recorded, each set beside the card model (stats --json:
# schedule and schedule.observed) and the occupancy API's figure (tools/occupancy.cu); also v6 and
# v8, whose grids are sized to the card. Results and the compact traces go to $1.
set -u
out="$1"
export LD_LIBRARY_PATH="$PWD/.devlib/lib"
ws="$PWD/.devlib/warpscope"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
nvcc -O3 -arch=sm_90 -I. -Itrace/capture tools/occupancy.cu kernels/v2.cu -o /tmp/occupancy && /tmp/occupancy | tee "$out/occupancy.txt"
for b in 64 256 1024; do
    "$ws" capture --version v2 --n 2^20 --block $b --backend gpu -o "$out/v2-b$b.wstrace" 2>&1 | tail -1
    "$ws" stats "$out/v2-b$b.wstrace" --json >"/tmp/v2-b$b.json"
    "$ws" stats "$out/v2-b$b.wstrace" | tail -3
done | tee "$out/schedule.txt"
for v in v6 v8; do
    "$ws" stats --version $v --n 2^24 --backend gpu | tail -3
    "$ws" stats --version $v --n 2^24 --backend gpu --json | python3 -c 'import json,sys; s=json.load(sys.stdin)["schedule"]; print(s["registers"], s["shared_bytes"], s["blocks_per_sm"], s["limited_by"], s["observed"])'
done | tee -a "$out/schedule.txt"
# the benchmark still builds its kernels from the same library
"$ws" bench --sizes 2^20 --versions v2,v8 --modes launch --reps 5 2>&1 | tail -6 | tee -a "$out/schedule.txt"
# the model beside what the card did, per block size
python3 - <<'PY' | tee -a "$out/schedule.txt"
import json, sys, glob
for f in sorted(glob.glob("/tmp/v2-b*.json")):
    s = json.load(open(f))["schedule"]
    print(f.rsplit("/", 1)[1], "model:", s["blocks_per_sm"], s["resident_blocks"], s["waves"], "observed:", s["observed"])
PY
