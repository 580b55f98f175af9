#!/bin/sh
# NVIDIA's reduction samples (tests/own/nvidia/, unchanged) run through their own host entries, as
# the sample's host code (reduction.cpp) runs them: maxThreads 256, maxBlocks 64, and the blocks'
# partial sums added on the GPU by a second reduce<T> over d_odata (its getNumBlocksAndThreads:
# kernels 0-2 one element per thread, 3-5 two, 6-8 at most 64 blocks), here in place on out, one
# block. The reference is the data's own sum (--data ones: n). What warpscope does not model is
# refused by name at its line. reduce<int> runs too (--type int).
ws="$1"
src="$2/tests/own/nvidia"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
# the kernel file, and the one function of the sample's host file (reduction.cpp) it calls
{ cat "$src/reduction_kernel.cu"; echo; echo 'extern "C" bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }'; } >"$tmp/reduction.cu"
cp "$src/reduction.h" "$tmp/"
cmp -s "$src/reduction_kernel.cu" "$tmp/reduction.cu" && { echo "FAIL: the copy was not made"; exit 1; }
head -c "$(wc -c <"$src/reduction_kernel.cu")" "$tmp/reduction.cu" | cmp -s - "$src/reduction_kernel.cu" || { echo "FAIL: the kernel file changed"; fail=1; }

next_pow2() { p=1; while [ "$p" -lt "$1" ]; do p=$((p * 2)); done; echo "$p"; }
# getNumBlocksAndThreads(kernel, n, 64, 256)
shape() {
    k=$1 n=$2
    if [ "$k" -lt 3 ]; then
        if [ "$n" -lt 256 ]; then t=$(next_pow2 "$n"); else t=256; fi
        b=$(((n + t - 1) / t))
    else
        if [ "$n" -lt 512 ]; then t=$(next_pow2 $(((n + 1) / 2))); else t=256; fi
        b=$(((n + t * 2 - 1) / (t * 2)))
    fi
    if [ "$k" -ge 6 ] && [ "$b" -gt 64 ]; then b=64; fi
    echo "$t $b"
}

for n in 65536 50000; do
    for k in 0 1 2 3 4 5 6 8; do
        set -- $(shape $k $n)
        t1=$1 b1=$2
        set -- $(shape $k $b1)
        t2=$1 b2=$2
        [ "$b2" = 1 ] || { echo "FAIL: the test's second pass has $b2 blocks"; fail=1; }
        entry="reduce<float>($n, $t1, $b1, $k, in, out), reduce<float>($b1, $t2, 1, $k, out, out)"
        if ! "$ws" stats --json --kernel "$tmp/reduction.cu" --entry "$entry" --n "$n" --data ones >"$tmp/r.json" 2>"$tmp/err"; then
            echo "FAIL: kernel $k, n $n ($entry):"; cat "$tmp/err"; fail=1; continue
        fi
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=int(sys.argv[2]); assert d["result"]==n and d["passes"]==2, (d["result"], d["passes"], n)' \
            "$tmp/r.json" "$n" || { echo "FAIL: kernel $k, n $n: not the sum"; fail=1; }
    done
done

# the same kernels of int data (--type int): the sum of n ones, exact
for k in 0 1 2 3 4 5 6 8; do
    set -- $(shape $k 65536)
    t1=$1 b1=$2
    set -- $(shape $k $b1)
    entry="reduce<int>(65536, $t1, $b1, $k, in, out), reduce<int>($b1, $1, 1, $k, out, out)"
    if ! "$ws" stats --json --type int --kernel "$tmp/reduction.cu" --entry "$entry" --n 65536 --data ones >"$tmp/r.json" 2>"$tmp/err"; then
        echo "FAIL: int kernel $k ($entry):"; cat "$tmp/err"; fail=1; continue
    fi
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==65536 and d["passes"]==2, (d["result"], d["passes"])' \
        "$tmp/r.json" || { echo "FAIL: int kernel $k: not the sum"; fail=1; }
done

# reduce7 adds, in its second warpReduceSum, lanes outside the ballot's mask (CUDA: undefined):
# under warpscope's rule a lane outside the mask gives the reader's own value, so the sum is wrong
"$ws" stats --json --kernel "$tmp/reduction.cu" --entry 'reduce<float>(65536, 256, 64, 7, in, out), reduce<float>(64, 32, 1, 7, out, out)' \
    --n 65536 --data ones >"$tmp/r.json" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'WRONG RESULT' "$tmp/err" || { echo "FAIL: kernel 7 was not judged wrong:"; cat "$tmp/err"; fail=1; }

# multi_warp_cg_reduce's tiles of 128 threads are refused by name at their line
"$ws" stats --kernel "$tmp/reduction.cu" --entry 'reduce<float>(65536, 256, 64, 9, in, out)' --n 65536 --data ones >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -Eq 'reduction.cu:[0-9]+: warpscope does not model a tile of more than 32 threads yet' "$tmp/err" ||
    { echo "FAIL: kernel 9 (exit $rc) was not refused by name:"; cat "$tmp/err"; fail=1; }

# threadFenceReduction's kernel file, as its host code (threadFenceReduction.cu: maxThreads 128,
# maxBlocks 64) runs it: reduce() twice (the second pass on d_odata in place), and reduceSinglePass(),
# whose last block (its __device__ ticket counter, atomicInc after __threadfence) adds the partials
cp "$src/threadFenceReduction_kernel.cuh" "$tmp/threadFenceReduction.cu"
for n in 65536 50000; do
    for entry in "reduce($n, 128, 64, in, out), reduce(64, 32, 1, out, out)" "reduceSinglePass($n, 128, 64, in, out)"; do
        if ! "$ws" stats --json --kernel "$tmp/threadFenceReduction.cu" --entry "$entry" --n "$n" --data ones >"$tmp/r.json" 2>"$tmp/err"; then
            echo "FAIL: threadFenceReduction $entry:"; cat "$tmp/err"; fail=1; continue
        fi
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==int(sys.argv[2]), d["result"]' "$tmp/r.json" "$n" ||
            { echo "FAIL: threadFenceReduction $entry: not the sum"; fail=1; }
    done
done

[ $fail = 0 ] && echo "NVIDIA's samples: every kernel ran or was refused by name"
exit $fail
