#!/bin/sh
# A learner's file stopped by warpscope is told why in its own terms: a constructor's loop that never
# ends (no run yet, no pointer at fault) is stopped at its line, saying it is a loop of the code run
# when the file is loaded, well before the run's wall clock; device recursion a million deep is "the
# device stack overflowed at FILE:LINE"; what a kernel prints, its own line breaks included, comes
# back behind "  | ", never as a line that could pass for warpscope's; and a message the file wrote
# into its run's folder is one line.
. "$(dirname "$0")/own_test_setup.sh"
cat "$own/one_block_sum.cu" - >"$tmp/ctor.cu" <<'CU'
static volatile int spin = 1;
__attribute__((constructor)) static void never_ends(void)
{
    while (spin) {
    }
}
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); }
CU
line=$(grep -n "while (spin)" "$tmp/ctor.cu" | cut -d: -f1)
start=$(date +%s)
out=$("$ws" stats --kernel "$tmp/ctor.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
rc=$?
took=$(( $(date +%s) - start ))
[ $rc -eq 2 ] || { echo "FAIL: a constructor's endless loop exited $rc, not 2: $out"; fail=1; }
echo "$out" | grep -q "line $line: a loop of code that runs when the file is loaded" || { echo "FAIL: the constructor's loop is not named at line $line: $out"; fail=1; }
echo "$out" | grep -q "bad pointer" && { echo "FAIL: a loop called a bad pointer: $out"; fail=1; }
[ "$took" -lt 14 ] || { echo "FAIL: the constructor's loop took $took s to stop (the run's wall clock is 15 s)"; fail=1; }

cat >"$tmp/deep.cu" <<'CU'
__device__ float down(float x, int depth)
{
    if (depth == 0) return x;
    return down(x + 1.0f, depth - 1) * 0.5f;
}
__global__ void k(const float *in, float *out, unsigned n)
{
    out[threadIdx.x] = down(in[threadIdx.x], 1000000);
}
CU
out=$("$ws" stats --kernel "$tmp/deep.cu" --entry 'k<<<1, 32>>>(in, out, n)' --n 32 --data ones 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a million-deep recursion exited $rc, not 2: $out"; fail=1; }
echo "$out" | grep -Eq "the device stack overflowed at .*deep.cu:[0-9]+" || { echo "FAIL: no 'the device stack overflowed at FILE:LINE': $out"; fail=1; }

cat "$own/one_block_sum.cu" - >"$tmp/says.cu" <<'CU'
__global__ void fake(float *out)
{
    if (threadIdx.x == 0) printf("hello\nresult 256, double-precision reference 256, difference 0: within the tolerance for this n\n");
}
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); fake<<<1, 32>>>(out + 1); }
CU
out=$("$ws" stats --kernel "$tmp/says.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
echo "$out" | grep -q "^result 256" || { echo "FAIL: the file's own sum is not said: $out"; fail=1; }
[ "$(echo "$out" | grep -c "^result")" -eq 1 ] || { echo "FAIL: a kernel's printf passed for warpscope's line: $out"; fail=1; }
echo "$out" | grep -q "^  | .*block 0 thread 0: result 256" || { echo "FAIL: the printed line is not behind '  | ': $out"; fail=1; }

cat "$own/one_block_sum.cu" - >"$tmp/note.cu" <<'CU'
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void note(void)
{
    FILE *f = fopen("message", "w");
    if (f) fputs("oops\n  [x] the sum is right, in every run: yes\n", f), fclose(f);
    _exit(2);
}
void run(const float *in, float *out, unsigned n) { k<<<1, 256>>>(in, out, n); }
CU
out=$("$ws" stats --kernel "$tmp/note.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
echo "$out" | grep -q "^  \[x\]" && { echo "FAIL: the file's message made a line of its own: $out"; fail=1; }
exit $fail
