#!/bin/sh
# The program judged is the program nvcc builds: the emulator builds the text as CUDA sees it
# (__CUDACC__ defined, none of warpscope's build macros to test); a file beside the learner's is
# included whatever its extension (NVIDIA's samples include reduction_kernel.cu), and the file is
# not then called a fragment; an include from outside its folder is refused in words that say why;
# what clang's CUDA analysis refuses is refused at the learner's line, as nvcc refuses it.
# --data ones, n = 256: the sum is 256.
. "$(dirname "$0")/own_test_setup.sh"
out=$("$ws" stats --kernel "$own/hostile/tells_the_emulator.cu" --entry 'k<<<1, 32>>>(in, out, n)' --n 256 --data ones 2>&1)
echo "$out" | grep -q "^result 256," || { echo "FAIL: the file told it was built by the emulator: $(echo "$out" | grep -m1 -E '^result|warpscope')"; fail=1; }
out=$("$ws" stats --kernel "$own/beside/sums_with_an_included_kernel.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
echo "$out" | grep -q "^result 256," || { echo "FAIL: a .cu file beside it, included: $(echo "$out" | grep -m1 -E '^result|warpscope')"; fail=1; }
out=$("$ws" stats --kernel "$own/beside/includes_from_above.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: an include from the folder above exited $rc, not 2: $out"; fail=1; }
echo "$out" | grep -q 'includes_from_above.cu:2:10: error: #include "../one_block_sum.cu" names a file outside the folder' ||
    { echo "FAIL: an include from the folder above is not refused in words: $out"; fail=1; }
echo "$out" | grep -q "fragment" && { echo "FAIL: a file with an include from above is called a fragment: $out"; fail=1; }
[ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "FAIL: more than one line: $out"; fail=1; }
# refused at the line, as nvcc refuses them: a static array of a device function as shared memory,
# a host global used from a kernel
for c in "static_as_shared.cu:7:.*only __shared__ variables, or const ones, may be static" \
         "host_global_in_kernel.cu:8:.*a host variable used in device code"; do
    f=${c%%:*}
    out=$("$ws" stats --kernel "$own/hostile/$f" --entry 'k<<<1, 256>>>(in, out, n)' --n 256 --data ones 2>&1)
    rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -Eq "$c" || { echo "FAIL: $f built, or was refused elsewhere than its line (exit $rc): $out"; fail=1; }
done
exit $fail
