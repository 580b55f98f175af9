#!/bin/sh
# Runs on the device machine, from the repository root, with a build of this machine carried in
# .devlib (binary, its libraries, the ctest files): the gpu-labelled tests through ctest, the
# equivalence report, the Nsight Compute cross-check, a GPU trace, and the benchmark.
set -u
out="$1"
export LD_LIBRARY_PATH="$PWD/.devlib/lib"
ws="$PWD/.devlib/warpscope"
# ctest files name the paths of the machine that configured them
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
mkdir -p /work/main/build && cp -r .devlib/build/. /work/main/build/ && cp "$ws" /work/main/build/warpscope
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
"$ws" capture --version v0 --block 64 --backend auto -o /tmp/v0-gpu.json 2>&1; gzip -c /tmp/v0-gpu.json >"$out/v0-gpu.json.gz"
"$ws" verify --md "$out/gpu-equivalence.md" >/tmp/verify.txt 2>&1; echo "verify exit $?"
(cd /work/main/build && ctest -L gpu --output-on-failure 2>&1 | tail -n 12) | tee "$out/ctest-gpu.txt"
python3 tools/ncu-crosscheck.py "$ws" "$out/hardware-counters.md" 2>&1 | tee "$out/ncu.txt"
"$ws" bench --json "$out/bench.json" >"$out/bench.txt" 2>&1
grep -c identical "$out/gpu-equivalence.md"; grep -c DIFFERS "$out/gpu-equivalence.md"
