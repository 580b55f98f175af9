#!/bin/sh
# A learner's file on the GPU (label gpu): the course notes' reduce0 traced on the GPU gives the
# counters of the addressing formula; the emulator's trace and the GPU's are the same warp by warp;
# mistakes are named at the learner's line, as the emulator names them; bench times a kernel of
# one's own beside CUB and refuses one that races. Skipped (77) without a GPU or a CUDA build.
# WS_GPU_TEST_CACHE: a cache of rewrites made elsewhere, for a machine without the front end.
ws="$1"
own="$2/tests/own"
ex="$2/lessons/exercises"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$XDG_CACHE_HOME"
[ -n "${WS_GPU_TEST_CACHE:-}" ] && cp -r "$WS_GPU_TEST_CACHE/." "$XDG_CACHE_HOME/"
fail=0

r0="--kernel $own/seed004_reduce0.cu --define THREAD_PER_BLOCK=256"
"$ws" stats --json --backend gpu $r0 --entry 'reduce0<<<1, 256>>>(in, out)' --n 256 --data ones >"$tmp/z.json" 2>"$tmp/err"
rc=$?
if grep -Eq "no usable CUDA device|has no CUDA" "$tmp/err"; then echo "no GPU: skipped"; exit 77; fi
[ $rc = 0 ] || { echo "FAIL: seed 004 on the GPU: exit $rc"; cat "$tmp/err"; fail=1; }
python3 "$own/reduce0_counts.py" "$tmp/z.json" || { echo "FAIL: seed 004 on the GPU: counters against the addressing formula"; fail=1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["device"] not in ("", "CPU emulator"), d["device"]' "$tmp/z.json" ||
    { echo "FAIL: seed 004's trace does not name the GPU it ran on"; fail=1; }

# the same trace warp by warp, and the cache: a second GPU capture builds nothing
"$ws" verify $r0 --entry 'reduce0<<<1, 256>>>(in, out)' >"$tmp/v.txt" 2>&1 || { echo "FAIL: verify seed 004"; cat "$tmp/v.txt"; fail=1; }
grep -q "| identical |" "$tmp/v.txt" || { echo "FAIL: seed 004 differs on the GPU"; cat "$tmp/v.txt"; fail=1; }
n1=$(ls "$XDG_CACHE_HOME/warpscope"/*.gputrace.so | wc -l)
"$ws" capture --backend gpu $r0 --entry 'reduce0<<<1, 256>>>(in, out)' -o "$tmp/t.wstrace" 2>/dev/null || { echo "FAIL: capture again"; fail=1; }
n2=$(ls "$XDG_CACHE_HOME/warpscope"/*.gputrace.so | wc -l)
[ "$n1" = "$n2" ] || { echo "FAIL: a second GPU capture built again ($n1, then $n2)"; fail=1; }

# a version beside the file, both on the GPU: each capture runs in a process of its own, so the
# version's does not leave CUDA started where the file's child is forked from
"$ws" render --backend gpu $r0 --entry 'reduce0<<<1, 256>>>(in, out)' --compare v0 --step 5 -o "$tmp/c.png" >"$tmp/out" 2>&1 &&
    "$ws" render --backend gpu --version v0 --step 2 -o "$tmp/d.png" >>"$tmp/out" 2>&1 && [ -s "$tmp/c.png" ] ||
    { echo "FAIL: render --backend gpu --kernel --compare v0"; cat "$tmp/out"; fail=1; }

# every exercise's solution: the same on the GPU, or a difference that its atomics or a warp the GPU
# left split explain
for j in "$ex"/*.json; do
    python3 - "$j" >"$tmp/x" <<'PY'
import json, sys
x = json.load(open(sys.argv[1]))["exercise"]
print(x["start"].replace(".cu", ".solution.cu")); print(x["entry"]); print(x.get("capture", {}).get("n", 256))
PY
    { read -r f; read -r e; read -r n; } <"$tmp/x"
    "$ws" verify --kernel "$2/tests/exercises/$f" --entry "$e" --n "$n" >"$tmp/v.txt" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -Eq "atomic warp instructions run in the GPU's order|may leave a warp split" "$tmp/v.txt"; then continue; fi
    [ $rc = 0 ] || { echo "FAIL: verify $f: exit $rc"; cat "$tmp/v.txt"; fail=1; }
done

# mistakes, at the learner's line (one line, exit 2)
expect() {
    pattern="$1"
    shift
    "$ws" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && grep -Eq "$pattern" "$tmp/err" && [ "$(wc -l <"$tmp/err")" = 1 ] ||
        { echo "FAIL: $* exited $rc, wanted 2 and one line matching '$pattern':"; cat "$tmp/err"; fail=1; }
}
expect "shared_past_the_end.cu:4: block 0, thread [0-9]+ .* element 256 of a __shared__ array of 256 elements" \
    capture --backend gpu --kernel "$own/shared_past_the_end.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 -o "$tmp/t.json"
expect "global_past_the_end.cu:4: block 0, thread [0-9]+ .* global element [0-9]+, beyond a buffer of 256 elements" \
    capture --backend gpu --kernel "$own/global_past_the_end.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 -o "$tmp/t.json"
expect "never_ends.cu:4: block 0, thread [0-9]+ .* still turning this loop after 10 s on the GPU" \
    capture --backend gpu --kernel "$own/never_ends.cu" --entry 'k<<<1, 256>>>(in, out)' --n 256 -o "$tmp/t.json"
expect "barrier_in_a_branch.cu:3: block 0: __syncthreads\(\) reached by 32 of its 64 threads" \
    capture --backend gpu --kernel "$own/barrier_in_a_branch.cu" --entry 'k<<<1, 64>>>(in, out)' --n 64 -o "$tmp/t.json"
expect "atomic_on_shared.cu:6: .*an atomic on __shared__ memory is not modelled" \
    capture --backend gpu --kernel "$own/atomic_on_shared.cu" --entry 'k<<<1, 32>>>(in, out)' --n 32 -o "$tmp/t.json"
expect "host_null_pointer.cu: the program stopped with signal 11" \
    capture --backend gpu --kernel "$own/host_null_pointer.cu" --entry 'run(in, out)' -o "$tmp/t.json"

# bench: a single-pass solution timed beside CUB, its sums checked; seed 001's loop, which races
# in place, refused
e=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exercise"]["entry"])' "$ex/08-last-block.json")
"$ws" bench --kernel "$2/tests/exercises/08-last-block.solution.cu" --entry "$e" --sizes 2^16,2^20 --modes launch --reps 5 --json "$tmp/b.json" \
    >"$tmp/b.txt" 2>&1 || { echo "FAIL: bench --kernel"; cat "$tmp/b.txt"; fail=1; }
python3 - "$tmp/b.json" <<'PY' || { echo "FAIL: bench --kernel's rows"; fail=1; }
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
mine = [r for r in rows if r["kind"] == "kernel"]
assert sorted(r["n"] for r in mine) == [1 << 16, 1 << 20], mine
assert all(r["ok"] and r["ms"] > 0 and r["passes"] >= 1 for r in mine), mine
assert any(r["name"] == "cub" for r in rows)
PY
expect "seed001_reduction.cu: the emulator finds [0-9]+ hazards? at n = 65536" \
    bench --kernel "$own/seed001_reduction.cu" --entry 'reduction(out, in, 256, n)' --sizes 2^16 --reps 3

[ $fail = 0 ] && echo "own_kernel_gpu: ok"
exit $fail
