#!/bin/sh
# What a learner's kernel does wrong is said at the learner's FILE:LINE, and what is legal CUDA
# builds: an integer divided by zero in device code (not "signal 8"), a literal 0 for a pointer
# argument of a launch (it runs; never an error inside warpscope's own header at a temporary path).
. "$(dirname "$0")/own_test_setup.sh"
out=$("$ws" stats --kernel "$own/divides_by_zero.cu" --entry 'k<<<1, 256>>>(in, out, n)' --n 256 --data ones 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a division by zero exited $rc, not 2: $out"; fail=1; }
echo "$out" | grep -q "divides_by_zero.cu:7: an integer divided by zero" || { echo "FAIL: a division by zero is not named at its line: $out"; fail=1; }
[ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "FAIL: more than one line: $out"; fail=1; }
out=$("$ws" stats --kernel "$own/null_pointer_argument.cu" --entry 'run(in, out, n)' --n 256 --data ones 2>&1)
echo "$out" | grep -q "^result 256," || { echo "FAIL: a literal 0 for a pointer argument: $(echo "$out" | head -2)"; fail=1; }
echo "$out" | grep -q "/tmp/\|warpscope-" && { echo "FAIL: a message names a temporary path: $out"; fail=1; }
exit $fail
