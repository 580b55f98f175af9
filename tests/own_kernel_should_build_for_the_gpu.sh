#!/bin/sh
# --backend gpu builds a learner's file traced by nvcc (trace/capture/own/ws_user_gpu.h) before it
# looks for the GPU: on a machine without one, every course-notes file and every exercise file
# (starting file and solution) must build, and warpscope must then say in one line that there is no
# GPU, and exit 2. Skipped (77) without a CUDA build or nvcc; on a machine with a GPU,
# own_kernel_gpu runs them there.
ws="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
out=$("$ws" capture --backend gpu --kernel "$src/tests/own/seed004_reduce0.cu" --define THREAD_PER_BLOCK=256 \
    --entry 'reduce0<<<1, 256>>>(in, out)' -o "$tmp/t.json" 2>&1)
rc=$?
case "$out" in *"has no CUDA"* | *"cannot run"* | *"no CUDA front end"*) echo "skipped: $out"; exit 77 ;; esac
[ $rc = 0 ] && { echo "skipped: this machine has a GPU (own_kernel_gpu runs the files there)"; exit 77; }

cases() {
    cat <<'LIST'
tests/own/seed001_reduction.cu|reduction(out, in, 256, n)|
tests/own/seed001_naive.cu|naive_reduction(in, in, 256, n)|
tests/own/seed004_reduce0.cu|reduce0<<<1, 256>>>(in, out)|THREAD_PER_BLOCK=256
tests/own/shuffles_and_float4.cu|reduce_shfl<<<4, 128>>>(in, out, n)|
tests/own/last_block_ticket.cu|run(in, out, n)|
tests/own/atomic_add_per_block.cu|reduce_atomic<<<(n + 255) / 256, 256>>>(in, out, n)|
LIST
    for j in "$src"/lessons/exercises/*.json; do
        python3 - "$j" <<'PY'
import json, sys
p = sys.argv[1]
x = json.load(open(p))["exercise"]
for f in ("lessons/exercises/" + x["start"], "tests/exercises/" + x["start"].replace(".cu", ".solution.cu")):
    print("%s|%s|%s" % (f, x["entry"], ",".join(x.get("defines", []))))
PY
    done
}
rm -rf "$XDG_CACHE_HOME" # the probe's build: each file below must be built again
n=0
cases >"$tmp/cases"
while IFS='|' read -r f e d; do
    before=$(ls "$XDG_CACHE_HOME/warpscope"/*.gputrace.so 2>/dev/null | wc -l)
    "$ws" capture --backend gpu --kernel "$src/$f" --entry "$e" ${d:+--define "$d"} -o "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    after=$(ls "$XDG_CACHE_HOME/warpscope"/*.gputrace.so 2>/dev/null | wc -l)
    if [ $rc != 2 ] || ! grep -q "no usable CUDA device" "$tmp/err" || [ "$(wc -l <"$tmp/err")" != 1 ]; then
        echo "FAIL: $f: exit $rc, not 2 with one line saying there is no GPU:"
        cat "$tmp/err"
        fail=1
    elif [ "$after" -le "$before" ]; then
        echo "FAIL: $f: nvcc built nothing"
        fail=1
    fi
    n=$((n + 1))
done <"$tmp/cases"
[ "$n" -ge 20 ] || { echo "FAIL: only $n files"; fail=1; }
[ $fail = 0 ] && echo "own_kernel_should_build_for_the_gpu: $n files built by nvcc, traced"
exit $fail
