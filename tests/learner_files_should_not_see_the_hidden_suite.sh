#!/bin/sh
# A check's hidden suite stays hidden and each run's record its own: exercise 3's right answer with
# a constructor (tests/own/hostile/reads_the_suite.cu) that aborts when it finds any of the
# exercise's run sizes (read here from the exercise; but 1 and 256, which are also a flag's and
# the block's size in the runner's arguments) at the start of an argument of
# /proc/self/cmdline or a value of /proc/self/environ, and writes a forged record into every
# descriptor it finds open in /proc/self/fd (in every run and in the adversarial search's child).
# The check solves, and nothing forged reaches the checklist.
. "$(dirname "$0")/own_test_setup.sh"
root="$2"
sizes=$(python3 -c 'import json,sys; print("".join("%d," % n for n in json.load(open(sys.argv[1]))["exercise"]["runs"]["n"] if n not in (1, 256)))' \
    "$root/lessons/exercises/03-missing-barrier.json")
[ -n "$sizes" ] || { echo "FAIL: no run sizes in exercise 3"; exit 1; }
cp "$own/hostile/reads_the_suite.cu" "$tmp/peek.cu"
sed -i "1i #define SIZES \"$sizes\"" "$tmp/peek.cu"
(cd "$tmp" && "$ws" exercise check 3 peek.cu >out 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the check exited $rc: the suite leaked (the constructor aborted) or a record was forged:"; cat "$tmp/out"; fail=1; }
grep -q "FORGED" "$tmp/out" && { echo "FAIL: a forged record reached the checklist:"; cat "$tmp/out"; fail=1; }
# the control: sizes the constructor finds (the file's own arguments, "batch,"), or it never looked
sed "1s/.*/#define SIZES \"batch,$sizes\"/" "$tmp/peek.cu" >"$tmp/control.cu"
(cd "$tmp" && "$ws" exercise check 3 control.cu >outc 2>&1) && { echo "FAIL: the control solved: the command line was never read"; cat "$tmp/outc"; fail=1; }
exit $fail
