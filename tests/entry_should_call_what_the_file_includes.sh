#!/bin/sh
# A learner's file that brings NVIDIA's reduction kernels in with one #include of the sample's
# reduction_kernel.cu (beside it, unchanged) may call their reduce<T> from its entry: the included
# file's device code is rewritten and traced as the file's own, and the sum is the data's (--data
# ones: n). A mistake in an included file is said at that file's name and line.
ws="$1"
src="$2/tests/own/nvidia"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0
cp "$src/reduction_kernel.cu" "$tmp/"
printf '#include "reduction_kernel.cu"\n\nextern "C" bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }\n' >"$tmp/main.cu"
# kernel 3 (two elements a thread) and 6 (grid-stride, 64 blocks), the partial sums added by a second reduce<float>
for c in "3:128:64" "6:64:32"; do
    k=${c%%:*}; rest=${c#*:}; b=${rest%%:*}; t2=${rest#*:}
    entry="reduce<float>(65536, 256, $b, $k, in, out), reduce<float>($b, $t2, 1, $k, out, out)"
    if "$ws" stats --json --kernel "$tmp/main.cu" --entry "$entry" --n 65536 --data ones >"$tmp/r.json" 2>"$tmp/err"; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["result"]==65536 and d["passes"]==2, d["result"]' "$tmp/r.json" ||
            { echo "FAIL: kernel $k through the include: not the sum"; fail=1; }
    else
        echo "FAIL: kernel $k through the include ($entry):"; cat "$tmp/err"; fail=1
    fi
done
# a mistake in the included file: named there
mkdir "$tmp/b"
printf '__device__ float twice(float x) { return 2 * y; }\n' >"$tmp/b/helper.cuh"
printf '#include "helper.cuh"\n__global__ void k(float *in, float *out) { out[0] = twice(in[0]); }\n' >"$tmp/b/main.cu"
"$ws" stats --kernel "$tmp/b/main.cu" --entry 'k<<<1, 32>>>(in, out)' --n 32 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "helper.cuh:1:[0-9]*: error: .*'y'" "$tmp/err" || { echo "FAIL: the included file's mistake is not said at its line:"; cat "$tmp/err"; fail=1; }
[ $fail = 0 ] && echo "the entry calls what the file includes: ok"
exit $fail
