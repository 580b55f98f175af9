#!/bin/sh
# Only the code compiled from the submitted file runs: once its object is loaded, the run can make
# no new executable memory. Exercise 3's right answer with a constructor that makes code of its
# own and jumps to it (tests/own/hostile/makes_new_code.cu), four ways: an anonymous mapping
# read-write-execute, a mapping written then made executable with mprotect, a memfd mapped
# executable, a shared object copied into its folder and loaded with dlopen. Each is stopped by the
# run's seccomp lock: the check is not solved, the code it made never ran, and the line says why.
. "$(dirname "$0")/own_test_setup.sh"
"$ws" --version | grep -q "^sandbox for a learner's file: .*seccomp" || { echo "SKIP: no seccomp here"; exit 77; }
for way in 1 2 3 4; do
    sed "s/^#define WAY 1\$/#define WAY $way/" "$own/hostile/makes_new_code.cu" >"$tmp/way$way.cu"
    grep -q "^#define WAY $way\$" "$tmp/way$way.cu" || { echo "FAIL: way $way not set"; fail=1; }
    (cd "$tmp" && "$ws" exercise check 3 "way$way.cu" >"out$way" 2>&1)
    rc=$?
    [ $rc -ne 0 ] || { echo "FAIL: way $way: the check passed (exit 0)"; fail=1; }
    grep -q "MADE CODE" "$tmp/out$way" && { echo "FAIL: way $way: the code the file made ran"; fail=1; }
    grep -Eiq "solved|all [0-9]+ goals met" "$tmp/out$way" && ! grep -qi "not solved" "$tmp/out$way" && { echo "FAIL: way $way: solved"; fail=1; }
    grep -q "tried to make executable memory" "$tmp/out$way" || { echo "FAIL: way $way: no line says why it stopped:"; cat "$tmp/out$way"; fail=1; }
done
# the same file without the constructor's code is a right answer: the lock stops nothing else
sed "s/^#define WAY 1\$/#define WAY 0/; s/^    if (WAY == 1) {/    if (WAY == 0) return;\n    if (WAY == 1) {/" "$own/hostile/makes_new_code.cu" >"$tmp/plain.cu"
(cd "$tmp" && "$ws" exercise check 3 plain.cu >outp 2>&1) || { echo "FAIL: the file without its attack is not solved:"; cat "$tmp/outp"; fail=1; }
exit $fail
